module github.com/omnihsr/omnihsr/tools

go 1.26.8

require (
	github.com/chromedp/chromedp v0.23.0
	github.com/omnihsr/omnihsr v0.0.0-00010101000000-000000000000
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/klauspost/compress v1.20.3 // indirect
	golang.org/x/image v0.47.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

replace github.com/omnihsr/omnihsr => ..

module github.com/omnihsr/omnihsr

go 1.26.8

require (
	github.com/klauspost/compress v1.20.3
	golang.org/x/image v0.47.0
	golang.org/x/sys v0.49.0
	golang.org/x/term v0.47.0
	gonum.org/v1/gonum v0.17.0
)

require golang.org/x/text v0.43.0 // indirect

module github.com/omnihsr/omnihsr

go 1.26.8

require (
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/term v0.47.0 // indirect
)

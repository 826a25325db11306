module toolhost.test/real-clis/dasel

go 1.26.0

tool github.com/tomwright/dasel/v2/cmd/dasel

require (
	github.com/alecthomas/chroma/v2 v2.13.0 // indirect
	github.com/clbanning/mxj/v2 v2.7.0 // indirect
	github.com/cpuguy83/go-md2man/v2 v2.0.3 // indirect
	github.com/dlclark/regexp2 v1.11.0 // indirect
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/pelletier/go-toml/v2 v2.2.2 // indirect
	github.com/russross/blackfriday/v2 v2.1.0 // indirect
	github.com/spf13/cobra v1.8.0 // indirect
	github.com/spf13/pflag v1.0.5 // indirect
	github.com/tomwright/dasel/v2 v2.8.1 // indirect
	golang.org/x/net v0.25.0 // indirect
	golang.org/x/text v0.15.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)

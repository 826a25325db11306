module textstats

go 1.21

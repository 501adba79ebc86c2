module example.com/fuzzymatch

go 1.22

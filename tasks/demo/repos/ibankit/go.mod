module example.com/ibankit

go 1.22

module example.com/card

go 1.22

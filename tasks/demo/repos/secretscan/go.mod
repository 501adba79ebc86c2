module example.com/secretscan

go 1.22

module example.com/geokit

go 1.22

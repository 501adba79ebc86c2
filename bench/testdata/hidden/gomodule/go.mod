module example.com/needsmodule

go 1.22

require example.com/absent v1.0.0

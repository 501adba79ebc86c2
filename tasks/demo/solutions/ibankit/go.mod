module example.com/ibankit-answers

go 1.22

require example.com/ibankit v0.0.0

replace example.com/ibankit => ../../repos/ibankit

#!/bin/sh
printf "%s\n" "$1" | tr "[:lower:]" "[:upper:]"

#!/bin/sh
printf "%s\n" "$1"

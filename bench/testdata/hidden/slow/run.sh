#!/bin/sh
# Starts a helper in the background and hangs: the budget's end must kill both.
sleep 300 &
echo $! > helper.pid
echo "ok 1 - started"
sleep 300

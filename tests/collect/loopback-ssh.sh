#!/bin/sh
# Stands in for ssh in tests: drops the host and "--", then hands the command
# line to sh -c, as sshd hands it to the remote user's shell. What it checks
# is our quoting of that line, which is the same for a real sshd.
shift
[ "$1" = "--" ] && shift
exec sh -c "$*"

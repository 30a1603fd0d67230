#!/bin/sh
# script.sh — a shell script, not an ELF binary.
echo hello

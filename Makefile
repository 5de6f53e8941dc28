# Conveniences over scripts/ and swift; the README's commands need no make.
.PHONY: all deps build test bench fuzz sample clean

all:
	scripts/bootstrap

deps:
	scripts/bootstrap --deps

build:
	swift build -c release --product trackd

test:
	swift test

bench:
	scripts/bench

fuzz:
	scripts/fuzz

sample:
	sample-nmea/make-sample.sh

clean:
	rm -rf .build .build-* hike.gpx

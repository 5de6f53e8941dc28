#!/usr/bin/env bash
# Rebuilds hike.nmea, the sample the README converts: a 35-minute hike from Grindelwald at 1 Hz,
# as a u-blox-style multi-GNSS receiver logs it, made by trackd's own route simulator (the same
# arguments give the same bytes) under a gpsd-style header.
#
#   sample-nmea/make-sample.sh [path/to/trackd]     (default: .build/release/trackd, built if missing)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
trackd=${1:-$here/../.build/release/trackd}
if [ ! -x "$trackd" ]; then
  (cd "$here/.." && swift build -c release --product trackd >&2)
fi
args=(simulate hike --duration 35m --seed 11 --noise 3 --rate 1)
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
"$trackd" "${args[@]}" -o "$tmp" -q
{
  echo "# Name: trackd sample hike"
  echo "# Chipset: u-blox M8-style multi-GNSS receiver (GN talker, GP/GL GSV), 1 Hz; simulated"
  echo "# Date: 2024-09-14"
  echo "# Location: Grindelwald, Switzerland, 46.62N 8.04E"
  echo "# Description: 35 min hiking uphill with rests and four fix losses (3 m noise)."
  echo "#   Made with: trackd ${args[*]} (sample-nmea/make-sample.sh)"
  cat "$tmp"
} > "$here/hike.nmea"
echo "wrote $here/hike.nmea ($(wc -l < "$here/hike.nmea") lines)" >&2

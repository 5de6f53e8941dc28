#!/usr/bin/env bash
# Rebuilds hike.nmea, the sample the README converts: a morning hike above Grindelwald,
# as a u-blox-style multi-GNSS receiver at 1 Hz would log it. Three stretches, each made by
# the benchmark kit's reproducible generator (same arguments, byte-identical output):
#   1. 3 min standing at the trailhead, with fix losses while the receiver settles;
#   2. 30 min hiking, with one fix loss under trees;
#   3. 2 min standing at the top.
# Usage: sample-nmea/make-sample.sh [path/to/gen_nmea.py]  (default: ../shared/bench/gen_nmea.py)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
gen=${1:-$here/../../shared/bench/gen_nmea.py}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
common=(--rate 1 --talker GN --alt 1340 --geoid 49.5)

python3 "$gen" "${common[@]}" --mode stationary --duration 180 --start 2024-09-14T07:30:00 --seed 7 \
  --outage-every 120 --outage-len 25 --lat 46.62405 --lon 8.04137 -o "$tmp/1.nmea" 2>/dev/null
python3 "$gen" "${common[@]}" --mode hike --duration 1800 --start 2024-09-14T07:33:00 --seed 8 \
  --outage-every 900 --outage-len 40 --lat 46.62405 --lon 8.04137 -o "$tmp/2.nmea" --truth "$tmp/2.csv" 2>/dev/null
# The last stretch starts where the hike ended.
read -r lat lon alt < <(tail -n 1 "$tmp/2.csv" | awk -F, '{ print $2, $3, $4 }')
python3 "$gen" --rate 1 --talker GN --geoid 49.5 --alt "$alt" --mode stationary --duration 120 \
  --start 2024-09-14T08:03:00 --seed 9 --outage-every 100000 --lat "$lat" --lon "$lon" -o "$tmp/3.nmea" 2>/dev/null

{
  echo "# Name: trackd sample hike"
  echo "# Chipset: u-blox M8-style multi-GNSS receiver (GN talker), 1 Hz; synthetic"
  echo "# Date: 2024-09-14"
  echo "# Location: Grindelwald, Switzerland, 46.62N 8.04E"
  echo "# Description: 3 min standing with fix losses, 30 min hiking with one fix loss, 2 min standing."
  echo "#   Generated with the benchmark kit's gen_nmea.py by sample-nmea/make-sample.sh; RMC VTG GGA GSA"
  echo "#   GSV GST each second, CRLF line endings."
  cat "$tmp/1.nmea" "$tmp/2.nmea" "$tmp/3.nmea"
} > "$here/hike.nmea"
echo "wrote $here/hike.nmea ($(wc -l < "$here/hike.nmea") lines)" >&2

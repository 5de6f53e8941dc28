// C marshalling over libgps (gpsd 3.22, API 11, as in Debian 12, and gpsd 3.25, API 14, as in
// Debian 13: scripts/check-libgps-headers compiles it against both): one function per thing
// Swift cannot do with libgps directly. No policy: trackd decides what a report means, in Swift.
#pragma once

#include <stdbool.h>
#include <stdint.h>

/// One connection to gpsd: libgps's `struct gps_data_t`, whose size and layout only C knows.
typedef struct trackd_gps trackd_gps;

/// The satellites copied out of one report at most (gpsd's MAXCHANNELS is 140).
#define TRACKD_GPS_MAX_SATELLITES 128
/// Room for a device path, as gpsd's GPS_PATH_MAX.
#define TRACKD_GPS_PATH_MAX 128

// Bits of `trackd_gps_report.set` (gps.h's *_SET masks, checked against them in gps_shim.c).
/// Set by a TPV report only: libgps starts a TPV's mask with it.
#define TRACKD_GPS_STATUS_SET (1ull << 9)
/// The report carried a time (TPV: `time` non-zero).
#define TRACKD_GPS_TIME_SET (1ull << 2)
/// A SKY report with its satellites.
#define TRACKD_GPS_SATELLITE_SET (1ull << 15)
/// A DEVICE report.
#define TRACKD_GPS_DEVICE_SET (1ull << 19)

// Values of `trackd_gps_report.status` (gps.h's STATUS_*, the same in 3.22 and 3.25, checked in gps_shim.c).
#define TRACKD_GPS_STATUS_DGPS 2      // DGPS or SBAS corrections
#define TRACKD_GPS_STATUS_RTK_FIX 3   // RTK, fixed integers
#define TRACKD_GPS_STATUS_RTK_FLT 4   // RTK, float integers
#define TRACKD_GPS_STATUS_DR 5        // dead reckoning only
#define TRACKD_GPS_STATUS_TIME 7      // time only: position surveyed in or entered by hand
#define TRACKD_GPS_STATUS_SIM 8       // simulated
#define TRACKD_GPS_STATUS_PPS 9       // precise positioning service

/// One satellite of a SKY report. Doubles are NaN when gpsd did not say.
typedef struct trackd_gps_satellite {
    int prn;            // PRN as NMEA 2.x-4.0 numbers it; 0 for n/a
    int gnssid;         // u-blox gnssId: 0 GPS, 1 SBAS, 2 Galileo, 3 BeiDou, 5 QZSS, 6 GLONASS, 7 NavIC
    int svid;           // the constellation's own number; 0 for n/a
    double elevation;   // degrees
    double azimuth;     // degrees
    double ss;          // signal strength, dB-Hz
    bool used;          // used in the solution
} trackd_gps_satellite;

/// What one read brought, copied out of `struct gps_data_t`. Doubles are NaN when unknown,
/// as libgps leaves them. Fix fields are the latest TPV's, DOPs and satellites the latest SKY's.
typedef struct trackd_gps_report {
    uint64_t set;                   // which reports this read held: TRACKD_GPS_*_SET
    int64_t time_seconds;           // fix.time, UTC seconds since 1970; 0 when none
    int64_t time_nanoseconds;
    int mode;                       // 0 not seen, 1 no fix, 2 2D, 3 3D
    int status;                     // gps.h STATUS_*: 0 unknown, 1 fix, 2 DGPS, 3 RTK fixed, 4 RTK float, ...
    double latitude, longitude;     // degrees
    double alt_hae, alt_msl;        // metres above the ellipsoid, above mean sea level
    double speed;                   // m/s
    double track;                   // degrees from true north
    double climb;                   // m/s
    double eph, epx, epy, epv;      // metres, gpsd's 95 % estimates
    double hdop, vdop, pdop;
    int satellites_used;
    int satellites_visible;
    int satellite_count;            // entries in `satellites`: min(visible, TRACKD_GPS_MAX_SATELLITES)
    trackd_gps_satellite satellites[TRACKD_GPS_MAX_SATELLITES];
    int64_t device_activated_seconds; // DEVICE report: when activated; 0 when deactivated
    char device[TRACKD_GPS_PATH_MAX];  // the device that sent the report, NUL-terminated
} trackd_gps_report;

/// Connects to gpsd at host:port. Returns NULL on failure with `*error` set to libgps's code
/// (negative NL_* values; see trackd_gps_errstr).
trackd_gps *trackd_gps_open(const char *host, const char *port, int *error);
/// Asks gpsd to stream JSON reports (?WATCH), of `device` only when it is not NULL. 0 on success.
int trackd_gps_stream(trackd_gps *gps, const char *device);
/// Whether a report is waiting, waiting at most `timeout_us` microseconds.
bool trackd_gps_waiting(trackd_gps *gps, int timeout_us);
/// The connection's socket, to wait on with poll(2) while libgps holds part of a report:
/// then gps_waiting answers "waiting" at once although no whole report is there.
int trackd_gps_fd(trackd_gps *gps);
/// Reads one report into `report`. Returns > 0 when a report was read, 0 when no whole report
/// has arrived yet, -1 when the connection failed or gpsd closed it.
int trackd_gps_read(trackd_gps *gps, trackd_gps_report *report);
/// Closes the connection and frees it.
void trackd_gps_close(trackd_gps *gps);
/// libgps's text for an error code from trackd_gps_open (NL_*) or an errno value.
const char *trackd_gps_errstr(int code);

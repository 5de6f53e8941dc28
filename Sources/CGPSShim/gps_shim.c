#include "gps_shim.h"

#include <errno.h>
#include <gps.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(TRACKD_GPS_STATUS_SET == STATUS_SET, "gps.h STATUS_SET moved");
_Static_assert(TRACKD_GPS_TIME_SET == TIME_SET, "gps.h TIME_SET moved");
_Static_assert(TRACKD_GPS_SATELLITE_SET == SATELLITE_SET, "gps.h SATELLITE_SET moved");
_Static_assert(TRACKD_GPS_DEVICE_SET == DEVICE_SET, "gps.h DEVICE_SET moved");
// gps.h of gpsd 3.22 (Debian 12, API 11) names DGPS STATUS_DGPS_FIX; that of 3.25 (Debian 13,
// API 14) renamed it STATUS_DGPS, with the same value. Check whichever this gps.h has.
#if defined(STATUS_DGPS_FIX)
#define TRACKD_LIBGPS_STATUS_DGPS STATUS_DGPS_FIX
#else
#define TRACKD_LIBGPS_STATUS_DGPS STATUS_DGPS
#endif
_Static_assert(TRACKD_GPS_STATUS_DGPS == TRACKD_LIBGPS_STATUS_DGPS && TRACKD_GPS_STATUS_RTK_FIX == STATUS_RTK_FIX
               && TRACKD_GPS_STATUS_RTK_FLT == STATUS_RTK_FLT && TRACKD_GPS_STATUS_DR == STATUS_DR
               && TRACKD_GPS_STATUS_TIME == STATUS_TIME && TRACKD_GPS_STATUS_SIM == STATUS_SIM
               && TRACKD_GPS_STATUS_PPS == STATUS_PPS_FIX, "gps.h STATUS_* changed");
_Static_assert(TRACKD_GPS_PATH_MAX == GPS_PATH_MAX, "gps.h GPS_PATH_MAX changed");

// gps_open fills a caller-allocated struct gps_data_t (tens of KiB, with unions Swift
// imports poorly); only C knows its size, so the shim allocates it.
trackd_gps *trackd_gps_open(const char *host, const char *port, int *error) {
    struct gps_data_t *data = calloc(1, sizeof *data);
    if (data == NULL) {
        *error = ENOMEM;
        return NULL;
    }
    if (gps_open(host, port, data) != 0) {
        *error = errno;
        free(data);
        return NULL;
    }
    return (trackd_gps *)data;
}

// WATCH_ENABLE, WATCH_JSON and WATCH_DEVICE are macros Swift cannot see without gps.h.
int trackd_gps_stream(trackd_gps *gps, const char *device) {
    unsigned int flags = WATCH_ENABLE | WATCH_JSON | (device != NULL ? WATCH_DEVICE : 0);
    return gps_stream((struct gps_data_t *)gps, flags, (void *)device);
}

// gps_waiting takes the opaque struct.
bool trackd_gps_waiting(trackd_gps *gps, int timeout_us) {
    return gps_waiting((struct gps_data_t *)gps, timeout_us);
}

// gps_fd is a field of the opaque struct.
int trackd_gps_fd(trackd_gps *gps) {
    return ((struct gps_data_t *)gps)->gps_fd;
}

// gps_read fills struct gps_data_t: its fix holds a timespec_t, its skyview an array of
// 140 structs, and `set` accumulates bits across reads (a SKY leaves the last TPV's bits).
// Clearing `set` first makes it describe this read alone; the rest is a plain copy.
int trackd_gps_read(trackd_gps *gps, trackd_gps_report *report) {
    struct gps_data_t *data = (struct gps_data_t *)gps;
    data->set = 0;
    int status = gps_read(data, NULL, 0);
    report->set = data->set;
    report->time_seconds = (int64_t)data->fix.time.tv_sec;
    report->time_nanoseconds = (int64_t)data->fix.time.tv_nsec;
    report->mode = data->fix.mode;
    report->status = data->fix.status;
    report->latitude = data->fix.latitude;
    report->longitude = data->fix.longitude;
    report->alt_hae = data->fix.altHAE;
    report->alt_msl = data->fix.altMSL;
    report->speed = data->fix.speed;
    report->track = data->fix.track;
    report->climb = data->fix.climb;
    report->eph = data->fix.eph;
    report->epx = data->fix.epx;
    report->epy = data->fix.epy;
    report->epv = data->fix.epv;
    report->hdop = data->dop.hdop;
    report->vdop = data->dop.vdop;
    report->pdop = data->dop.pdop;
    report->satellites_used = data->satellites_used;
    report->satellites_visible = data->satellites_visible;
    int count = data->satellites_visible;
    count = count < 0 ? 0 : (count > TRACKD_GPS_MAX_SATELLITES ? TRACKD_GPS_MAX_SATELLITES : count);
    report->satellite_count = count;
    for (int i = 0; i < count; i++) {
        const struct satellite_t *sat = &data->skyview[i];
        report->satellites[i] = (trackd_gps_satellite){
            .prn = sat->PRN, .gnssid = sat->gnssid, .svid = sat->svid,
            .elevation = sat->elevation, .azimuth = sat->azimuth, .ss = sat->ss, .used = sat->used,
        };
    }
    report->device_activated_seconds = (int64_t)data->dev.activated.tv_sec;
    memcpy(report->device, data->dev.path, sizeof report->device);
    report->device[sizeof report->device - 1] = '\0';
    return status;
}

// gps_close leaves the struct to its owner, which is the shim.
void trackd_gps_close(trackd_gps *gps) {
    gps_close((struct gps_data_t *)gps);
    free(gps);
}

// gps_errstr: declared in gps.h, which Swift does not import.
const char *trackd_gps_errstr(int code) {
    return gps_errstr(code);
}

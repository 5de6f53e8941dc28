#include "alsa_shim.h"

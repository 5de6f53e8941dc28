import GPSCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The libm functions the projection and the axes need, without importing Foundation.
@inline(__always) func _log(_ x: Double) -> Double { log(x) }
@inline(__always) func _exp(_ x: Double) -> Double { exp(x) }
@inline(__always) func _tan(_ x: Double) -> Double { tan(x) }
@inline(__always) func _atan(_ x: Double) -> Double { atan(x) }
@inline(__always) func _cos(_ x: Double) -> Double { cos(x) }
@inline(__always) func _log10(_ x: Double) -> Double { log10(x) }
@inline(__always) func _pow(_ x: Double, _ y: Double) -> Double { pow(x, y) }

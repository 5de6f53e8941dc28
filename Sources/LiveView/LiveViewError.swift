/// What can go wrong when serving the live view.
public enum LiveViewError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `--serve`/`--bind` got something that is not `HOST:PORT` or a port.
    case badAddress(String, reason: String)
    /// Another program (or another trackd) listens on the address.
    case addressInUse(ListenAddress)
    /// A port below 1024 without the privilege to bind it.
    case privilegedPort(ListenAddress)
    /// The host is not an address of this machine.
    case notLocal(ListenAddress)
    /// The host is a name that does not resolve.
    case unknownHost(ListenAddress)
    /// Any other failure to listen, with the system's reason.
    case cannotListen(ListenAddress, reason: String)

    public var description: String {
        switch self {
        case .badAddress(let text, let reason):
            return "'\(text)' is not an address to serve on: \(reason); give HOST:PORT, such as 127.0.0.1:8080 (this machine only) or 0.0.0.0:8080 (every network), or a port"
        case .addressInUse(let address):
            return "cannot serve the live view on \(address): the address is already in use (another program, or another trackd, listens there); choose another port, such as \(address.host.contains(":") ? "[\(address.host)]" : address.host):\(address.port == 65535 ? 8081 : address.port + 1)"
        case .privilegedPort(let address):
            return "cannot serve the live view on \(address): ports below 1024 need privileges trackd does not have; use a port from 1024 up, such as 8080"
        case .notLocal(let address):
            return "cannot serve the live view on \(address): '\(address.host)' is not an address of this machine; use 127.0.0.1 (this machine only), 0.0.0.0 (every network) or one of this machine's addresses"
        case .unknownHost(let address):
            return "cannot serve the live view on \(address): the name '\(address.host)' does not resolve to an address; use 127.0.0.1 (this machine only), 0.0.0.0 (every network) or one of this machine's addresses"
        case .cannotListen(let address, let reason):
            return "cannot serve the live view on \(address): \(reason)"
        }
    }
}

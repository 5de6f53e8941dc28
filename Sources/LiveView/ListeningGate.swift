import Synchronization

/// Opens when the live view listens, or fails with the reason it cannot: the recording
/// waits on it, so that a port in use stops `trackd record --serve` before any fix is read.
public final class ListeningGate: Sendable {
    private enum State {
        case waiting([CheckedContinuation<String, any Error>])
        case open(url: String)
        case failed(any Error)
    }

    private let state = Mutex(State.waiting([]))

    public init() {}

    /// The page's URL once the server listens; throws what stopped it from listening.
    public func wait() async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            let resolved: Result<String, any Error>? = state.withLock { state in
                switch state {
                case .waiting(var waiting):
                    waiting.append(continuation)
                    state = .waiting(waiting)
                    return nil
                case .open(let url): return .success(url)
                case .failed(let error): return .failure(error)
                }
            }
            if let resolved { continuation.resume(with: resolved) }
        }
    }

    func open(url: String) { resolve(.success(url)) }

    func fail(_ error: any Error) { resolve(.failure(error)) }

    private func resolve(_ result: Result<String, any Error>) {
        let waiting: [CheckedContinuation<String, any Error>] = state.withLock { state in
            guard case .waiting(let waiting) = state else { return [] }
            switch result {
            case .success(let url): state = .open(url: url)
            case .failure(let error): state = .failed(error)
            }
            return waiting
        }
        for continuation in waiting { continuation.resume(with: result) }
    }
}

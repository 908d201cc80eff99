import NIOCore

extension MQTTClient {
    /// Connects to `endpoint` with a clean session, logged in as it says.
    static func connect(to endpoint: MQTTLiveSession.Endpoint, timeout: TimeAmount = .seconds(10)) async throws -> MQTTClient {
        let options = MQTTPacket.Connect(clientID: endpoint.clientID, keepAlive: endpoint.keepAlive, cleanSession: true,
                                         username: endpoint.username, password: endpoint.password.map { Array($0.utf8) })
        return try await connect(host: endpoint.host, port: endpoint.port, options: options, timeout: timeout)
    }
}

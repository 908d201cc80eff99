import NIOCore

/// The connections of `mapsim serve`, on the listening channel's event loop: at most `maximum` open
/// at once (beyond that the listener stops accepting, and a client waits in the kernel's queue until
/// one closes), and a graceful stop — no new connection, each open one closed after the answer in
/// flight, what is still open after the grace period closed anyway.
final class ServeConnections: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel

    private let maximum: Int
    private var open: [ObjectIdentifier: any Channel] = [:]
    private var paused = false
    /// Completed when the last connection closes after a stop began.
    private var drained: EventLoopPromise<Void>?
    private var context: ChannelHandlerContext?

    init(maximum: Int) {
        self.maximum = max(maximum, 1)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        if drained != nil {
            child.close(promise: nil)
            return
        }
        let key = ObjectIdentifier(child)
        open[key] = child
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        child.closeFuture.whenComplete { _ in
            bound.eventLoop.execute {
                let (handler, context) = bound.value
                handler.closed(key, context: context)
            }
        }
        if open.count >= maximum && !paused {
            paused = true
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in }
        }
        context.fireChannelRead(data)
    }

    private func closed(_ key: ObjectIdentifier, context: ChannelHandlerContext) {
        open[key] = nil
        if paused && open.count < maximum && drained == nil {
            paused = false
            context.channel.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in }
            context.read()
        }
        if open.isEmpty, let drained {
            drained.succeed()
        }
    }

    /// Stops accepting and asks every connection to close after its answer in flight; the future
    /// completes when all are closed, or after `grace` when the rest are closed anyway.
    /// Called on the listener's event loop, `eventLoop`.
    func stop(grace: TimeAmount, on eventLoop: any EventLoop) -> EventLoopFuture<Void> {
        if let drained { return drained.futureResult }
        guard let context else { return eventLoop.makeSucceededVoidFuture() }
        let promise = context.eventLoop.makePromise(of: Void.self)
        drained = promise
        context.channel.close(promise: nil)
        for child in open.values { child.pipeline.fireUserInboundEventTriggered(ChannelShouldQuiesceEvent()) }
        if open.isEmpty { promise.succeed() }
        let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
        let deadline = context.eventLoop.scheduleTask(in: grace) {
            for child in bound.value.open.values { child.close(promise: nil) }
        }
        promise.futureResult.whenComplete { _ in deadline.cancel() }
        return promise.futureResult
    }
}

import NIOCore
import NIOHTTPTypes

/// Closes a connection whose request takes longer than `timeout` to arrive, from its head to the end of its body.
/// Hummingbird's idle timeout (`http.idleTimeoutSeconds`) already closes an idle keep-alive connection and one whose
/// head stalls, but every body part resets it, so a client trickling a body a byte at a time could hold a connection
/// (and its file descriptor) for as long as it likes. This bounds the whole request instead. Nothing is answered: the
/// request never arrived, so it was never decided.
final class RequestReadDeadlineHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            deadline?.cancel()
            let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                bound.value.close(promise: nil)
            }
        case .body:
            break
        case .end:
            deadline?.cancel()
            deadline = nil
        }
        context.fireChannelRead(data)
    }

    func channelInactive(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }
}

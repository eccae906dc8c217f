package dev.lomicontrol.transport;

import dev.lomicontrol.transport.FrameException.Reason;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Why and whether a {@link SocketFrameChannel} closed: the first reason recorded wins, and the close
 * actions registered before it run once, on the thread that recorded it; an action registered after
 * it runs at once. Every later read or write fails with the recorded reason.
 */
final class ChannelClose {

    private final Object state = new Object();

    // state lock
    private @Nullable Reason closeReason;
    private String closeDetail = "";
    private final List<Runnable> closeActions = new ArrayList<>();

    /** See {@link FrameChannel#onClose}. */
    void onClose(Runnable action) {
        synchronized (state) {
            if (closeReason == null) {
                closeActions.add(action);
                return;
            }
        }
        action.run();
    }

    /** True for the first close: records why and runs the close actions. */
    boolean record(Reason reason, String detail) {
        List<Runnable> actions;
        synchronized (state) {
            if (closeReason != null) {
                return false;
            }
            closeReason = reason;
            closeDetail = detail;
            actions = new ArrayList<>(closeActions);
            closeActions.clear();
        }
        actions.forEach(Runnable::run);
        return true;
    }

    /** The failure a closed channel reports, null while it is open. */
    @Nullable
    FrameException failure() {
        synchronized (state) {
            return closeReason == null ? null : new FrameException(closeReason, closeDetail);
        }
    }

    void throwIfClosed() throws FrameException {
        FrameException closed = failure();
        if (closed != null) {
            throw closed;
        }
    }
}

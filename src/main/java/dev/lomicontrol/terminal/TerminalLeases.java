package dev.lomicontrol.terminal;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.LomiException;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Who may type into one terminal: grants, looks up and revokes its single lease (see {@link Lease}),
 * under the terminal's monitor; a revocation settles a run in flight as lost once the monitor is let
 * go. {@link Terminal}'s lease methods are these.
 */
final class TerminalLeases {

    private final TerminalState state;
    private final Supplier<String> ids;

    TerminalLeases(TerminalState state, Supplier<String> ids) {
        this.state = state;
        this.ids = ids;
    }

    /** See {@link Terminal#grantLease}. */
    Lease grant(String holder) {
        if (holder == null || holder.isBlank()) {
            throw new LomiException(ErrorCode.INVALID_ARGUMENT, "a lease needs a holder");
        }
        try {
            synchronized (state.lock) {
                return state.shell.grant(new Lease(ids.get(), holder), state.deferred);
            }
        } finally {
            state.runDeferred();
        }
    }

    /** See {@link Terminal#lease}. */
    Optional<Lease> current() {
        synchronized (state.lock) {
            return state.shell.lease();
        }
    }

    /** See {@link Terminal#revokeLease}. */
    void revoke(String reason) {
        try {
            synchronized (state.lock) {
                state.shell.revoke(reason, state.deferred);
            }
        } finally {
            state.runDeferred();
        }
    }

    /** See {@link Terminal#revokeLeasesOf}. */
    void revokeOf(String holder, String reason) {
        try {
            synchronized (state.lock) {
                if (state.shell
                        .lease()
                        .map(lease -> lease.holder().equals(holder))
                        .orElse(false)) {
                    state.shell.revoke(reason, state.deferred);
                }
            }
        } finally {
            state.runDeferred();
        }
    }
}

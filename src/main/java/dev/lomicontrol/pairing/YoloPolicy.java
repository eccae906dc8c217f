package dev.lomicontrol.pairing;

import dev.lomicontrol.ledger.Ledger;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;

/**
 * The saved YOLO policy (default off). On: pending and future pairing requests are approved with
 * the full grant for current and future projects. Toggling either way revokes every live session,
 * so no session keeps authority granted under the other policy.
 */
public final class YoloPolicy {

    private static final String SETTING = "yolo";

    private final Ledger store;
    private final Pairings pairings;
    private final Sessions sessions;
    private final Clock clock;

    public YoloPolicy(Ledger store, Pairings pairings, Sessions sessions, Clock clock) {
        this.store = store;
        this.pairings = pairings;
        this.sessions = sessions;
        this.clock = clock;
        pairings.setYolo(load());
    }

    public boolean isOn() {
        return pairings.yolo();
    }

    /**
     * Saves the policy, applies it and revokes live sessions; returns how many were revoked.
     * Turning it off stops automatic approval before the first session is revoked.
     */
    public synchronized int set(boolean on) {
        store.write(c -> {
            try (PreparedStatement s = c.prepareStatement(
                    "INSERT INTO broker_setting (name, value, updated_at) VALUES (?, ?, ?)"
                            + " ON CONFLICT (name) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at")) {
                s.setString(1, SETTING);
                s.setString(2, Boolean.toString(on));
                s.setLong(3, clock.millis());
                return s.executeUpdate();
            }
        });
        if (!on) {
            // off first: a helper re-enrolling while the sessions are revoked must wait for the admin (F6)
            pairings.setYolo(false);
            return sessions.revokeAll("YOLO policy turned off");
        }
        int revoked = sessions.revokeAll("YOLO policy turned on");
        pairings.setYolo(true);
        return revoked;
    }

    private boolean load() {
        return store.read(c -> {
            try (PreparedStatement s = c.prepareStatement("SELECT value FROM broker_setting WHERE name = ?")) {
                s.setString(1, SETTING);
                try (ResultSet rs = s.executeQuery()) {
                    return rs.next() && Boolean.parseBoolean(rs.getString(1));
                }
            }
        });
    }
}

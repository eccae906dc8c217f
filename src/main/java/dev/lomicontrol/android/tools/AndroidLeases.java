package dev.lomicontrol.android.tools;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.Ids;
import dev.lomicontrol.core.LomiException;
import dev.lomicontrol.tools.Hex32;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The input lease of each device (in memory, as the reference: a broker restart ends them): at most
 * one per device, held by one session for one generation. A claim the admin approved replaces the
 * holder's lease; a release, the holder's session ending or a new generation ends it.
 */
final class AndroidLeases {

    /** One lease: its id (32 lower-case hex), its holder's session id, the generation it was granted at. */
    record Lease(String id, String holder, String generation) {}

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Lease> byDevice = new ConcurrentHashMap<>();

    /** A new lease on {@code deviceId} for {@code holder} at {@code generation}; the previous holder's dies. */
    Lease grant(String deviceId, String holder, String generation) {
        Lease lease = new Lease(Ids.randomHex(random, 16), holder, generation);
        byDevice.put(deviceId, lease);
        return lease;
    }

    /** The lease on {@code deviceId}, if any. */
    Optional<Lease> of(String deviceId) {
        return Optional.ofNullable(byDevice.get(deviceId));
    }

    /** Whether {@code holder} holds the lease on {@code deviceId}. */
    boolean heldBy(String deviceId, String holder) {
        return of(deviceId).filter(lease -> lease.holder().equals(holder)).isPresent();
    }

    /** Ends {@code holder}'s lease on {@code deviceId}; whether there was one. */
    boolean release(String deviceId, String holder) {
        Lease lease = byDevice.get(deviceId);
        return lease != null && lease.holder().equals(holder) && byDevice.remove(deviceId, lease);
    }

    /** Every lease {@code holder} holds ends (its connection is gone). */
    void sessionEnded(String holder) {
        byDevice.values().removeIf(lease -> lease.holder().equals(holder));
    }

    /**
     * The lease {@code leaseId} on {@code deviceId}, held by {@code holder} at {@code generation};
     * else CONTROL_REVOKED (claim it again with lomi_panel_control).
     */
    Lease require(String deviceId, String holder, String generation, Hex32 leaseId) {
        Lease lease = byDevice.get(deviceId);
        if (lease == null
                || !lease.holder().equals(holder)
                || !lease.id().equals(leaseId.value())
                || !lease.generation().equals(generation)) {
            throw new LomiException(
                    ErrorCode.CONTROL_REVOKED,
                    "lease " + leaseId + " is not this session's input lease on device " + deviceId + " at generation "
                            + generation + " (released, taken by another claim, or the device rebooted); claim it"
                            + " again with lomi_panel_control");
        }
        return lease;
    }
}

package dev.lomicontrol.broker;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The control socket's capacity ({@code lomi.control.*}; shipped defaults in {@code config/application.properties},
 * docs/OPERATIONS.md "Capacity").
 *
 * @param maxConnections      agent connections held at once (each pairing, handshaking or connected helper holds
 *                            one); one more is answered {@code broker_full} before TLS and retries by itself
 * @param maxPendingPairings  pairing requests waiting for the admin at once; one more is refused and asks again
 */
@ConfigurationProperties("lomi.control")
public record ControlProperties(
        @DefaultValue("256") int maxConnections,
        @DefaultValue("64") int maxPendingPairings) {

    public ControlProperties {
        if (maxConnections < 1 || maxConnections > 4096) {
            throw new IllegalArgumentException("lomi.control.max-connections must be 1-4096, not " + maxConnections);
        }
        if (maxPendingPairings < 1 || maxPendingPairings > 1024) {
            throw new IllegalArgumentException(
                    "lomi.control.max-pending-pairings must be 1-1024, not " + maxPendingPairings);
        }
    }
}

package dev.lomicontrol.console;

import dev.lomicontrol.broker.ControlEndpoint;
import dev.lomicontrol.broker.ControlProperties;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.stereotype.Component;

/**
 * The control socket's connections as {@code status} and {@code session list} show them: in use, the cap
 * ({@code lomi.control.max-connections}), refusals since the start and the warning from 80 %. Without a
 * control endpoint (the console's slice) nothing is in use.
 */
@Component
class AgentConnections {

    private final ObjectProvider<ControlEndpoint> endpoint;
    private final ControlProperties properties;

    AgentConnections(ObjectProvider<ControlEndpoint> endpoint, ControlProperties properties) {
        this.endpoint = endpoint;
        this.properties = properties;
    }

    int open() {
        ControlEndpoint control = endpoint.getIfAvailable();
        return control == null ? 0 : control.openConnections();
    }

    int max() {
        return properties.maxConnections();
    }

    long refused() {
        ControlEndpoint control = endpoint.getIfAvailable();
        return control == null ? 0 : control.refusedConnections();
    }

    Optional<String> warning() {
        return ControlEndpoint.capacityWarning(open(), max());
    }
}

package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostQualification;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.UnqualifiedToolsTests;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import tools.jackson.databind.JsonNode;

/**
 * The broker's side of the 32 declared tools this host cannot serve: a default (full) grant does
 * not hold their scopes, so the broker refuses them SCOPE_DENIED; a grant an admin widened to their
 * scopes gets HOST_UNQUALIFIED with the host's reason — never a success, never an unknown tool.
 */
class UnqualifiedToolsBrokerTests {

    @RegisterExtension
    final BrokerCallsFixture broker = BrokerCallsFixture.inTemporaryDirectory();

    @BeforeEach
    void open() {
        broker.project("p1");
    }

    @Test
    void aDefaultGrantLacksTheirScopesAndAWidenedOneGetsHostUnqualifiedWithTheReason() {
        Session standard = broker.session();
        Set<String> widened = Scopes.known();
        Session admitted = broker.session(new Grant(true, Set.of(), widened));

        for (ToolSpec<?> spec : ToolCatalog.standard().all()) {
            if (spec.host() == HostNeed.NONE
                    || dev.lomicontrol.tools.HostQualification.reason(spec).isEmpty()) {
                continue; // served on this host (the browser tools where Chromium is installed)
            }
            String arguments = UnqualifiedToolsTests.VALID.get(spec.name());
            assertThat(broker.refused(standard, spec.name(), arguments))
                    .as(spec.name())
                    .isEqualTo(ErrorCode.SCOPE_DENIED);

            JsonNode envelope = broker.call(admitted, spec.name(), arguments);
            assertThat(envelope.path("code").asString())
                    .as(spec.name() + " " + envelope)
                    .isEqualTo("HOST_UNQUALIFIED");
            assertThat(envelope.path("message").asString())
                    .as(spec.name())
                    .isEqualTo(
                            spec.name() + ": " + HostQualification.reason(spec).orElseThrow());
        }
    }
}

package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostProbe;
import dev.lomicontrol.tools.HostQualification;
import dev.lomicontrol.tools.ToolSpec;
import dev.lomicontrol.tools.UnqualifiedToolsTests;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The broker's side of the declared tools a host cannot serve (a host with no adb, no Android SDK
 * and no Chromium, as the dispatch's probe sees it): a default (full) grant holds their scopes, and
 * each answers HOST_UNQUALIFIED with the host's reason — never a success, never an unknown tool.
 */
class UnqualifiedToolsBrokerTests {

    @TempDir
    Path temp;

    @RegisterExtension
    final BrokerCallsFixture broker = BrokerCallsFixture.inTemporaryDirectory();

    @BeforeEach
    void open() {
        broker.project("p1");
    }

    @Test
    void onAHostWithoutTheirCapabilitiesEveryHostBoundToolAnswersHostUnqualifiedWithTheReason() {
        HostProbe bare = new HostProbe(Map.of("PATH", temp.toString()), Optional.empty(), temp, temp.resolve("kvm"));
        broker.host = () -> bare;
        Session standard = broker.session();
        int checked = 0;
        for (ToolSpec<?> spec : ToolCatalog.standard().all()) {
            if (spec.host() == HostNeed.NONE
                    || HostQualification.reason(spec, bare).isEmpty()) {
                continue; // the browser tools where a browser setting names one
            }
            String arguments = UnqualifiedToolsTests.VALID.get(spec.name());
            JsonNode envelope = broker.call(standard, spec.name(), arguments);
            assertThat(envelope.path("code").asString())
                    .as(spec.name() + " " + envelope)
                    .isEqualTo("HOST_UNQUALIFIED");
            assertThat(envelope.path("message").asString())
                    .as(spec.name())
                    .isEqualTo(spec.name() + ": "
                            + HostQualification.reason(spec, bare).orElseThrow());
            checked++;
        }
        assertThat(checked).as("the 13 Android tools at least").isGreaterThanOrEqualTo(13);
    }
}

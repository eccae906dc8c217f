package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.mcp.HelperValidation;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.tools.ArgumentSamples;
import dev.lomicontrol.tools.ToolSpec;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The helper and the broker accept and refuse exactly the same arguments: for every declared tool,
 * calls derived from its declaration (the smallest and the fullest valid call, null for each
 * optional field, one breakage per field) get the same verdict — and the same message — from the
 * real helper session and from the broker's binding.
 */
class ValidationEquivalenceTests {

    @TempDir
    Path temp;

    @Test
    void theHelperAndTheBrokerGiveEveryDerivedCallTheSameVerdict() throws InterruptedException {
        HelperValidation helper = new HelperValidation();
        List<String> disagreements = new ArrayList<>();
        int calls = 0;
        int tools = 0;
        int refused = 0;
        try (BrokerCallsFixture broker = new BrokerCallsFixture(temp)) {
            // every scope a grant can hold, so that no refusal of authority hides the verdict on the arguments
            Session session = broker.session(new Grant(true, Set.of(), Scopes.known()));
            for (ToolSpec<?> spec : ToolCatalog.standard().all()) {
                if (spec.helperAnswers()) {
                    continue;
                }
                tools++;
                for (ArgumentSamples.Sample sample : ArgumentSamples.of(spec)) {
                    Optional<String> byHelper = helper.refusal(spec.name(), sample.arguments());
                    Optional<String> byBroker = bindingRefusal(
                            broker.call(session, spec.name(), sample.arguments().toString()));
                    calls++;
                    refused += byHelper.isPresent() ? 1 : 0;
                    if (!byHelper.equals(byBroker)) {
                        disagreements.add(spec.name() + " [" + sample.label() + "] " + sample.arguments() + ": helper "
                                + byHelper + ", broker " + byBroker);
                    }
                }
            }
        }
        assertThat(disagreements)
                .as("calls where the helper and the broker disagree")
                .isEmpty();
        assertThat(calls).isGreaterThan(5 * tools);
        assertThat(refused).isGreaterThan(calls / 3);
    }

    /** A refusal of the arguments: over 64 KiB (PAYLOAD_TOO_LARGE), or by the binding (INVALID_ARGUMENT naming the argument path). */
    private static Optional<String> bindingRefusal(JsonNode envelope) {
        String code = envelope.path("code").asString("");
        if (code.equals(ErrorCode.PAYLOAD_TOO_LARGE.name())
                || code.equals(ErrorCode.INVALID_ARGUMENT.name())
                        && envelope.path("message").asString("").startsWith("arguments")) {
            return Optional.of(envelope.path("message").asString());
        }
        return Optional.empty();
    }
}

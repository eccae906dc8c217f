package dev.lomicontrol.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.broker.BrokerCallsFixture;
import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.demo.api.DemoSpecs;
import dev.lomicontrol.demo.tools.DemoFeature;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.tools.Toolset;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;

/**
 * The dry run of "a feature is a plug-in": a feature that lives only in {@code demo/} (its contract
 * in {@code demo.api}, its handlers in {@code demo.tools}) joins the broker with no edit outside its
 * folder — the same list of features and the same catalog the broker's beans make, plus this one —
 * and its tools get what every tool gets: scope, binding and validation, receipts and retries.
 */
class DemoFeatureTests {

    @TempDir
    Path temp;

    @Test
    void aFeatureOutsideTheBrokerIsServedLikeEveryOther() {
        AtomicReference<DemoFeature> demo = new AtomicReference<>();
        try (BrokerCallsFixture broker =
                new BrokerCallsFixture(temp, ToolCatalog.standard().with(Toolset.CORE, DemoSpecs.ALL), parts -> {
                    demo.set(new DemoFeature(parts.access, parts.runner));
                    return demo.get();
                })) {
            Project project = broker.project("demo");
            Session session = broker.session();
            String epoch = broker.connect(session, project).value();

            assertThat(broker.ok(session, "lomi_demo_echo", "{\"text\":\"hello\"}")
                            .path("text")
                            .asString())
                    .isEqualTo("hello");
            assertThat(broker.refused(session, "lomi_demo_echo", "{\"text\":\"\"}"))
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);
            assertThat(broker.refused(session, "lomi_demo_echo", "{\"text\":\"x\",\"extra\":1}"))
                    .isEqualTo(ErrorCode.INVALID_ARGUMENT);

            String note = BrokerCallsFixture.json(
                    "workspaceId",
                    BrokerCallsFixture.workspaceOf(project),
                    "text",
                    "remember",
                    "retryEpoch",
                    epoch,
                    "requestKey",
                    "note-1");
            JsonNode first = broker.ok(session, "lomi_demo_note", note);
            JsonNode again = broker.ok(session, "lomi_demo_note", note);
            assertThat(first.path("state").asString()).isEqualTo("succeeded");
            assertThat(first.path("result").path("kind").asString()).isEqualTo("demo_noted");
            assertThat(again.path("operationId").asString())
                    .isEqualTo(first.path("operationId").asString());
            assertThat(demo.get().notes).containsExactly("remember");

            java.util.Set<String> allButTerminalRead = new java.util.HashSet<>(dev.lomicontrol.pairing.Scopes.all());
            allButTerminalRead.remove("terminal.read");
            Session narrower = broker.session(new Grant(true, java.util.Set.of(), allButTerminalRead));
            String narrowerEpoch = broker.connect(narrower, project).value();
            JsonNode refused = broker.call(
                    narrower,
                    "lomi_demo_note",
                    BrokerCallsFixture.json(
                            "workspaceId",
                            BrokerCallsFixture.workspaceOf(project),
                            "text",
                            "!run",
                            "retryEpoch",
                            narrowerEpoch,
                            "requestKey",
                            "note-2"));
            assertThat(refused.path("code").asString()).isEqualTo("SCOPE_DENIED");
            assertThat(refused.path("message").asString()).isEqualTo("a note starting with '!' needs terminal.read");
            assertThat(demo.get().notes).as("the handler never ran").containsExactly("remember");
            assertThat(broker.ok(
                                    narrower,
                                    "lomi_demo_note",
                                    BrokerCallsFixture.json(
                                            "workspaceId",
                                            BrokerCallsFixture.workspaceOf(project),
                                            "text",
                                            "plain",
                                            "retryEpoch",
                                            narrowerEpoch,
                                            "requestKey",
                                            "note-3"))
                            .path("state")
                            .asString())
                    .as("the same session without the variant's need is served")
                    .isEqualTo("succeeded");

            Session unscoped = broker.session(new Grant(true, java.util.Set.of(), java.util.Set.of("files.read")));
            assertThat(broker.refused(unscoped, "lomi_demo_echo", "{\"text\":\"hello\"}"))
                    .isEqualTo(ErrorCode.SCOPE_DENIED);
        }
    }
}

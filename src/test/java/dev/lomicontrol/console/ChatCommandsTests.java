package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.chat.FakeModelProvider;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** The chat command group as console lines through the real executor, with a real provider server on 127.0.0.1 answering {@code chat say}. */
// its operations and conversations stay in the shared context's ledger: a fresh context (and data directory) for the
// classes after it
@org.springframework.test.annotation.DirtiesContext
class ChatCommandsTests extends ConsoleTestSupport {

    static final String KEY = "sk-console-secret-42";

    @Autowired
    Projects projects;

    @Test
    void connectionsConversationsSharesAndTheAdminsOwnMessageWithTheModelsReply() throws Exception {
        try (FakeModelProvider provider = new FakeModelProvider()) {
            provider.script(FakeModelProvider.Script.reply("Hi ", "admin"));
            Path keyFile = temp.resolve("openai.key");
            Files.writeString(keyFile, KEY);
            Files.setPosixFilePermissions(keyFile, PosixFilePermissions.fromString("rw-------"));
            String id = "local" + System.nanoTime();

            String added = ok("chat connection add " + id + " --kind openai --base-url " + provider.openAiBaseUrl()
                    + " --model gpt-test --api-key-file " + keyFile);
            assertThat(added)
                    .contains(id, "openai", "gpt-test", "file:" + keyFile)
                    .doesNotContain(KEY);
            assertThat(ok("chat connection list"))
                    .contains(id, provider.openAiBaseUrl(), "file:" + keyFile)
                    .doesNotContain(KEY);
            assertThat(run("chat connection add x --kind gemini --base-url http://127.0.0.1:1/v1 --model m")
                            .exitCode())
                    .isNotZero();

            Project project = projects.add(
                    Files.createDirectories(temp.resolve("chatty")).toRealPath(),
                    Optional.of("chatty-" + System.nanoTime()));
            String created = ok("chat new --title Plans --project " + project.id());
            Matcher matcher = Pattern.compile("conversation (chat-[0-9a-f]+)").matcher(created);
            assertThat(matcher.find()).as(created).isTrue();
            String chat = matcher.group(1);

            assertThat(ok("chat share " + chat + " --client claude-code")).contains("shared", "client claude-code");
            assertThat(ok("chat list --project " + project.id())).contains(chat, "Plans", "client:claude-code");
            tools.jackson.databind.JsonNode chats =
                    tools.jackson.databind.json.JsonMapper.builder().build().readTree(ok("chat list --json"));
            assertThat(dev.lomicontrol.mcp.Conformance.violation(
                            dev.lomicontrol.tools.RecordSchemas.output(ConsoleJson.Chats.class), chats))
                    .isEmpty();
            assertThat(chats.toString()).contains(chat, "client:claude-code");
            tools.jackson.databind.JsonNode connections = tools.jackson.databind.json.JsonMapper.builder()
                    .build()
                    .readTree(ok("chat connection list --json"));
            assertThat(dev.lomicontrol.mcp.Conformance.violation(
                            dev.lomicontrol.tools.RecordSchemas.output(ConsoleJson.ChatConnections.class), connections))
                    .isEmpty();
            assertThat(connections.toString()).contains(id, "file:" + keyFile).doesNotContain(KEY);
            assertThat(run("chat share " + chat).exitCode())
                    .as("names exactly one of --client/--session")
                    .isNotZero();
            assertThat(ok("chat tools " + chat + " on")).contains("may use tools");
            assertThat(ok("chat tools " + chat + " off")).contains("uses no tools");
            assertThat(run("chat tools " + chat + " maybe").exitCode()).isNotZero();

            assertThat(ok("chat say " + chat + " 'hello there' --connection " + id))
                    .contains("answers in");
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> ok("chat show " + chat).contains("Hi admin"));
            String shown = ok("chat show " + chat);
            assertThat(shown)
                    .contains("hello there", "assistant (gpt-test via " + id + ")", "Hi admin")
                    .doesNotContain(KEY);
            assertThat(provider.requests()).isEqualTo(1);
            assertThat(provider.received().get(0).authorization()).isEqualTo("Bearer " + KEY);

            assertThat(ok("chat connection remove " + id)).contains("removed");
            assertThat(ok("chat connection list")).doesNotContain(id);
        }
    }
}

package dev.lomicontrol.console;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.lomicontrol.broker.BrokerCalls;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Scopes;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.testing.TestSite;
import dev.lomicontrol.tools.HostNeed;
import dev.lomicontrol.tools.HostQualification;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code browser screenshot} in the real broker context with a real Chromium: an agent opens a
 * page of a local test site (the admin approves its origin), and the admin's screenshot of that
 * panel is a PNG file (0600) of the page's viewport at its pixel size, with the page's colours at
 * their places; an existing file is replaced only with {@code --force}; a panel whose browser
 * closed is refused.
 */
@org.springframework.test.annotation.DirtiesContext
class BrowserScreenshotConsoleTests extends ConsoleTestSupport {

    static final JsonMapper JSON = JsonMapper.builder().build();

    @Autowired
    BrokerCalls calls;

    @Autowired
    Sessions sessions;

    @Autowired
    Projects projects;

    @Test
    void theScreenshotIsThePagesViewportAsAPrivatePngFile() throws Exception {
        assertThat(HostQualification.reason(HostNeed.BROWSER))
                .as("the browser tests need Chromium: apt-get install -y chromium-headless-shell")
                .isEmpty();
        try (TestSite site = new TestSite()) {
            Project project = projects.add(
                    Files.createDirectories(temp.resolve("site")).toRealPath(),
                    Optional.of("shots-" + System.nanoTime()));
            Session session = agent();
            String workspace = project.workspaces().get(0).id().value();
            String epoch = data(call(session, "lomi_connect", "{\"workspaceId\":\"" + workspace + "\"}"))
                    .path("retryEpoch")
                    .asString();
            JsonNode waiting = data(call(
                    session,
                    "lomi_browser_open",
                    "{\"workspaceId\":\"" + workspace + "\",\"url\":\"" + site.url("/colours.html")
                            + "\",\"expectedRevision\":\"" + projects.revision() + "\",\"retryEpoch\":\"" + epoch
                            + "\",\"requestKey\":\"open-1\"}"));
            String operation = waiting.path("operationId").asString();
            ok("decision approve " + operation);
            JsonNode opened = await().atMost(Duration.ofSeconds(30))
                    .until(
                            () -> data(call(session, "lomi_operation_get", "{\"operationId\":\"" + operation + "\"}")),
                            o -> o.path("state").asString().equals("succeeded"));
            String panel = opened.at("/result/panelId").asString();
            String generation = opened.at("/result/browserGeneration").asString();
            JsonNode viewport = data(call(
                            session,
                            "lomi_browser_snapshot",
                            "{\"workspaceId\":\"" + workspace + "\",\"panelId\":\"" + panel
                                    + "\",\"browserGeneration\":\"" + generation + "\"}"))
                    .path("viewport");
            double scale = viewport.path("deviceScaleFactor").asDouble(1);

            long started = System.nanoTime();
            JsonNode shot = JSON.readTree(ok("browser screenshot " + panel + " --json"));
            System.out.println("browser screenshot: " + (System.nanoTime() - started) / 1_000_000 + " ms, "
                    + shot.path("width") + "x" + shot.path("height") + " pixels, " + shot.path("bytes") + " bytes");

            assertThat(dev.lomicontrol.mcp.Conformance.violation(
                            dev.lomicontrol.tools.RecordSchemas.output(ConsoleJson.Screenshot.class), shot))
                    .as("the document conforms to the schema its record derives")
                    .isEmpty();
            Path file = cwd.resolve(panel + ".png");
            assertThat(shot.path("file").asString()).isEqualTo(file.toString());
            assertThat(Files.getPosixFilePermissions(file)).isEqualTo(PosixFilePermissions.fromString("rw-------"));
            assertThat(shot.path("bytes").asLong()).isEqualTo(Files.size(file));
            assertThat(shot.path("generation").asString()).isEqualTo(generation);
            BufferedImage image = ImageIO.read(file.toFile());
            assertThat(image).as("a PNG that decodes").isNotNull();
            assertThat(image.getWidth()).isEqualTo(shot.path("width").asInt()).isEqualTo((int)
                    Math.floor(viewport.path("width").asDouble() * scale));
            assertThat(image.getHeight()).isEqualTo(shot.path("height").asInt()).isEqualTo((int)
                    Math.floor(viewport.path("height").asDouble() * scale));
            assertThat(rgb(image, 150 * scale, 75 * scale))
                    .as("inside the red mark")
                    .isEqualTo(0xff0000);
            assertThat(rgb(image, 10 * scale, 10 * scale)).as("the blue page").isEqualTo(0x0000ff);
            assertThat(rgb(image, 350 * scale, 75 * scale))
                    .as("right of the mark")
                    .isEqualTo(0x0000ff);

            assertThat(fails("browser screenshot " + panel, 1)).contains("already exists", "--force");
            Files.writeString(file, "older");
            assertThat(ok("browser screenshot " + panel + " --force")).contains("wrote " + file, "pixels", "bytes");
            assertThat(ImageIO.read(file.toFile()))
                    .as("replaced by a whole PNG")
                    .isNotNull();
            Files.createDirectories(cwd.resolve("shots"));
            assertThat(ok("browser screenshot " + panel + " --out shots/page.png"))
                    .contains(cwd.resolve("shots/page.png").toString());

            calls.sessionEnded(session);
            assertThat(fails("browser screenshot " + panel + " --out closed.png", 1))
                    .contains("TARGET_NOT_FOUND", "shows no live browser");
            assertThat(cwd.resolve("closed.png")).doesNotExist();
        }
    }

    /** A paired agent session with every scope, as a client the admin approved. */
    private Session agent() {
        PairingRequest request = new PairingRequest(
                "pr-" + HexFormat.of().toHexDigits(System.nanoTime()),
                "browser agent",
                "97".repeat(32),
                4713,
                clock.instant(),
                clock.instant().plus(Duration.ofMinutes(2)));
        return sessions.open(request, new Grant(true, Set.of(), Scopes.all()), () -> {});
    }

    private JsonNode call(Session session, String tool, String arguments) {
        return calls.call(session, tool, JSON.readTree(arguments));
    }

    private static int rgb(BufferedImage image, double x, double y) {
        return image.getRGB((int) x, (int) y) & 0xffffff;
    }

    private static JsonNode data(JsonNode envelope) {
        assertThat(envelope.path("status").asString()).as("%s", envelope).isEqualTo("ok");
        return envelope.path("data");
    }
}

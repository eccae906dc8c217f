package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.android.tools.AndroidFeature;
import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.artifacts.tools.ArtifactCalls;
import dev.lomicontrol.browser.tools.BrowserCalls;
import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.chat.Chat;
import dev.lomicontrol.chat.ChatProperties;
import dev.lomicontrol.chat.SpringAiModels;
import dev.lomicontrol.chat.tools.ChatCalls;
import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RequestKey;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.core.ToolName;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.editor.tools.EditorCalls;
import dev.lomicontrol.episodes.Episodes;
import dev.lomicontrol.episodes.EpisodesProperties;
import dev.lomicontrol.episodes.tools.EpisodeCalls;
import dev.lomicontrol.files.tools.FileCalls;
import dev.lomicontrol.git.tools.GitCalls;
import dev.lomicontrol.layout.tools.LayoutCalls;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.ledger.LedgerProperties;
import dev.lomicontrol.ledger.Operation;
import dev.lomicontrol.ledger.Reservation;
import dev.lomicontrol.ledger.ReserveRequest;
import dev.lomicontrol.ledger.Target;
import dev.lomicontrol.operations.OperationRunner;
import dev.lomicontrol.operations.OperationWaits;
import dev.lomicontrol.operations.PanelTargets;
import dev.lomicontrol.operations.ToolFeature;
import dev.lomicontrol.operations.Waits;
import dev.lomicontrol.operations.WorkspaceAccess;
import dev.lomicontrol.operations.tools.OperationCalls;
import dev.lomicontrol.pairing.Grant;
import dev.lomicontrol.pairing.PairingRequest;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.projects.Layout;
import dev.lomicontrol.projects.Project;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.session.tools.WorkspaceCalls;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.settings.tools.SettingsCalls;
import dev.lomicontrol.terminal.SandboxPolicy;
import dev.lomicontrol.terminal.TerminalOptions;
import dev.lomicontrol.terminal.TerminalSandbox;
import dev.lomicontrol.terminal.Terminals;
import dev.lomicontrol.terminal.tools.TerminalCalls;
import dev.lomicontrol.terminal.tools.TerminalRunProperties;
import dev.lomicontrol.testing.Eventually;
import dev.lomicontrol.testing.MutableClock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The broker's call dispatcher over real components: a real SQLite ledger in a temp directory,
 * projects on real folders, real sessions and the episode board, with a clock the test moves and a
 * native-stop hook that records what it was asked to stop.
 */
public final class BrokerCallsFixture implements AutoCloseable, org.junit.jupiter.api.extension.AfterEachCallback {

    public static final JsonMapper JSON = JsonMapper.builder().build();

    public final MutableClock clock = MutableClock.startingAt("2026-12-01T09:00:00Z");
    public final SecureRandom random = new SecureRandom();
    public final Path temp;
    public final Ledger ledger;
    public final Projects projects;
    public final Sessions sessions;
    public final Episodes episodes;
    public final List<Operation> stopRequests = new CopyOnWriteArrayList<>();
    public final Terminals terminals;
    public final DecisionBoard decisions = new DecisionBoard();
    public final AtomicBoolean yolo = new AtomicBoolean(false);
    public final Settings settings;
    public final ArtifactStore artifacts;
    public final dev.lomicontrol.browser.Browsers browsers;
    public final dev.lomicontrol.projects.BrowserOrigins origins;
    public final Layout layout;
    public final WorkspaceAccess access;
    public final OperationRunner runner;
    public final Waits waits;
    public final OperationWaits operationWaits;
    /** The features the calls are made of, the recorder of native stops last. */
    public final List<ToolFeature> features;

    public final BrokerCalls calls;
    /** The chat module on Spring AI's real models; keys come from {@link #environment} (the broker process's environment stand-in). */
    public final Chat chat;

    public final java.util.Map<String, String> environment = new java.util.concurrent.ConcurrentHashMap<>();
    /** Provider requests may take 3 s here; every streamed piece is checkpointed. */
    public static final ChatProperties CHAT = new ChatProperties(Duration.ofSeconds(3), Duration.ZERO);

    /**
     * The devices {@code lomi_android_list} lists. Tests never touch the user's adb server or AVDs: by
     * default no server (a port nothing listens on, and no adb to start one: HOST_UNQUALIFIED) and an
     * empty AVD home; a test points it at its own (a private adb server, an AVD home in a temp dir).
     */
    public volatile java.util.function.Supplier<dev.lomicontrol.android.AndroidDevices> androidDevices;

    /** How long an emulator's boot may take (lomi_android_start): the reference's 180 s unless a test says less. */
    public volatile java.time.Duration androidBootDeadline = dev.lomicontrol.android.Emulators.BOOT_DEADLINE;

    /**
     * The host the broker's dispatch checks each call against (HOST_UNQUALIFIED): this process's by
     * default; a test sets one built from its own environment map (an {@code ANDROID_HOME} in a temp
     * dir with a stand-in {@code emulator}, a KVM device it can open), read anew on every call.
     */
    public volatile java.util.function.Supplier<dev.lomicontrol.tools.HostProbe> host =
            dev.lomicontrol.tools.HostProbe::current;

    /** A port of 127.0.0.1 nothing listens on (taken and released once). */
    static final int NO_ADB_SERVER = freePort();

    private static int freePort() {
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return probe.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The directory this fixture made for itself and removes when it closes (none when the test gave one). */
    private final Optional<Path> own;

    /**
     * A fixture in a temporary directory of its own; as a {@code @RegisterExtension} field it opens with the
     * test instance and closes (removing the directory) after the test.
     */
    public static BrokerCallsFixture inTemporaryDirectory() {
        try {
            Path own = Files.createTempDirectory("lomi-broker-");
            return new BrokerCallsFixture(
                    own,
                    policy -> policy,
                    () -> Optional.of(Path.of("/usr/bin/bwrap")),
                    ToolCatalog.standard(),
                    broker -> List.of(),
                    Optional.of(own));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void afterEach(org.junit.jupiter.api.extension.ExtensionContext context) {
        close();
    }

    public BrokerCallsFixture(Path temp) {
        this(temp, policy -> policy);
    }

    /** A fixture whose terminal sandbox is {@code sandboxPolicy} applied to the default one (home: the fixture's empty home). */
    public BrokerCallsFixture(Path temp, java.util.function.UnaryOperator<SandboxPolicy> sandboxPolicy) {
        this(temp, sandboxPolicy, () -> java.util.Optional.of(Path.of("/usr/bin/bwrap")));
    }

    /** As above, with {@code bubblewrap} standing for the host's executable (empty: a host without it). */
    public BrokerCallsFixture(
            Path temp,
            java.util.function.UnaryOperator<SandboxPolicy> sandboxPolicy,
            java.util.function.Supplier<Optional<Path>> bubblewrap) {
        this(temp, sandboxPolicy, bubblewrap, ToolCatalog.standard(), broker -> List.of(), Optional.empty());
    }

    /**
     * The broker with one more feature (built by {@code added} from this fixture's shared parts) and
     * the {@code catalog} that declares its tools: a new feature plugs in exactly as the Spring beans do.
     */
    public BrokerCallsFixture(
            Path temp, ToolCatalog catalog, java.util.function.Function<BrokerCallsFixture, ToolFeature> added) {
        this(
                temp,
                policy -> policy,
                () -> Optional.of(Path.of("/usr/bin/bwrap")),
                catalog,
                broker -> List.of(added.apply(broker)),
                Optional.empty());
    }

    @SuppressWarnings("this-escape") // the added features are built from the parts assigned before
    private BrokerCallsFixture(
            Path temp,
            java.util.function.UnaryOperator<SandboxPolicy> sandboxPolicy,
            java.util.function.Supplier<Optional<Path>> bubblewrap,
            ToolCatalog catalog,
            java.util.function.Function<BrokerCallsFixture, List<ToolFeature>> added,
            Optional<Path> own) {
        this.temp = temp;
        this.own = own;
        Path noAvds = temp.resolve("no-avds");
        androidDevices = () -> new dev.lomicontrol.android.AndroidDevices(
                new dev.lomicontrol.android.AdbBridge(
                        NO_ADB_SERVER, Optional.empty(), dev.lomicontrol.android.AdbTimeouts.DEFAULT),
                new dev.lomicontrol.android.AvdDirectory(noAvds));
        ledger = Ledger.open(temp.resolve("agent-control"), LedgerProperties.defaults(), clock, random);
        projects = new Projects(ledger, clock);
        sessions = new Sessions(ledger, clock);
        episodes = Episodes.open(ledger, clock, EpisodesProperties.defaults(), random);
        // shells get an empty HOME: the machine's own startup files (pyenv and the like) are slow and keep locks
        // sandboxed like the broker's; the data and runtime directories of this fixture are hidden from shells
        terminals = new Terminals(
                TerminalOptions.defaults(temp.resolve("shell")),
                random,
                new TerminalSandbox(
                        sandboxPolicy.apply(SandboxPolicy.defaults(emptyHome(temp))),
                        List.of(temp.resolve("agent-control"), temp.resolve("run")),
                        bubblewrap),
                java.util.Map.of("HOME", emptyHome(temp).toString()));
        settings = new Settings(ledger, clock);
        artifacts = new ArtifactStore(temp.resolve("artifacts"), clock, random, 4L << 20, 1L << 30, 64);
        browsers =
                new dev.lomicontrol.browser.Browsers(dev.lomicontrol.browser.BrowserOptions.defaults(), clock, random);
        origins = new dev.lomicontrol.projects.BrowserOrigins(ledger, clock);
        chat = Chat.open(ledger, clock, CHAT, new SpringAiModels(), environment::get);
        layout = new Layout(projects, ledger, clock, random);
        access = new WorkspaceAccess(projects, ledger, ledger.instance().value(), clock);
        runner = new OperationRunner(ledger, decisions, yolo::get, clock, Duration.ofSeconds(120));
        waits = new Waits(ledger);
        operationWaits = new OperationWaits(ledger, waits);
        PanelTargets panels = new PanelTargets(access, layout);
        FileCalls files = new FileCalls(access, runner, layout, new DataDirectory(temp));
        // the broker's features built with the constructors Spring calls (FeatureListTests keeps the lists equal),
        // then one that records the native stops no feature took
        List<ToolFeature> built = new java.util.ArrayList<>(List.of(
                new WorkspaceCalls(access),
                new OperationCalls(ledger, access, runner, waits, operationWaits),
                new EpisodeCalls(episodes, clock),
                new LayoutCalls(projects, layout, access, runner),
                new TerminalCalls(
                        terminals,
                        layout,
                        ledger,
                        panels,
                        runner,
                        settings,
                        waits,
                        operationWaits,
                        new TerminalRunProperties(TerminalRunProperties.DEFAULT_OUTPUT_TAIL_BYTES)),
                files,
                new EditorCalls(settings, panels, files, runner, layout),
                new ArtifactCalls(artifacts, files, runner, layout),
                new SettingsCalls(settings, access, runner, layout, clock, decisions),
                new GitCalls(files, runner, layout),
                new BrowserCalls(browsers, origins, artifacts, layout, panels, runner),
                new ChatCalls(chat, access, runner, layout),
                new AndroidFeature(
                        access,
                        layout,
                        panels,
                        runner,
                        artifacts,
                        () -> androidDevices.get(),
                        () -> host.get(),
                        () -> androidBootDeadline)));
        built.addAll(added.apply(this));
        built.add(new StopRecorder());
        features = List.copyOf(built);
        dev.lomicontrol.operations.PanelsByKind live = dev.lomicontrol.operations.PanelsByKind.of(features);
        calls = new BrokerCalls(
                features, live, episodes, ledger, access, runner, waits, operationWaits, catalog, () -> host.get());
    }

    /** Takes every native stop request the features left (they take only their own operations) and records it. */
    private final class StopRecorder implements ToolFeature {

        @Override
        public void register(Wiring wiring) {}

        @Override
        public boolean requestStop(Operation operation) {
            return stopRequests.add(operation);
        }
    }

    private static Path emptyHome(Path temp) {
        try {
            return Files.createDirectories(temp.resolve("empty-home"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Session session() {
        return session(Grant.full());
    }

    public Session session(Grant grant) {
        return session(grant, 4242);
    }

    /** A session whose helper process is {@code peerPid} (the protected-terminal check reads its ancestry). */
    public Session session(Grant grant, long peerPid) {
        PairingRequest request = new PairingRequest(
                "req-" + random.nextInt(1_000_000),
                "test client",
                "00".repeat(32),
                peerPid,
                clock.instant(),
                clock.instant().plusSeconds(60));
        return sessions.open(request, grant, () -> {});
    }

    public Project project(String name) {
        try {
            Path folder = Files.createDirectories(temp.resolve("projects").resolve(name))
                    .toRealPath();
            return projects.add(folder, Optional.of(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String workspaceOf(Project project) {
        return project.workspaces().get(0).id().value();
    }

    /** JSON object text from name/value pairs (values: String, Number, Boolean, JsonNode or null). */
    public static String json(Object... pairs) {
        tools.jackson.databind.node.ObjectNode node = JSON.createObjectNode();
        for (int i = 0; i < pairs.length; i += 2) {
            String name = (String) pairs[i];
            Object value = pairs[i + 1];
            if (value == null) {
                node.putNull(name);
            } else if (value instanceof String text) {
                node.put(name, text);
            } else if (value instanceof Integer number) {
                node.put(name, number);
            } else if (value instanceof Long number) {
                node.put(name, number);
            } else if (value instanceof Boolean flag) {
                node.put(name, flag);
            } else {
                node.set(name, (JsonNode) value);
            }
        }
        return JSON.writeValueAsString(node);
    }

    /** The current domainRevision as a layout mutation names it. */
    public String revision() {
        return Long.toString(projects.revision());
    }

    /** Polls the operation until it leaves queued/running/cancelling/awaiting_user; fails when {@code within} passes first. */
    public JsonNode settled(Session session, String operationId, Duration within) {
        return Eventually.await(
                operationId + " settles",
                within,
                () -> ok(session, "lomi_operation_get", json("operationId", operationId)),
                operation -> !List.of("queued", "running", "cancelling", "awaiting_user")
                        .contains(operation.path("state").asString()));
    }

    /** The raw envelope of one call; {@code arguments} is JSON text. */
    public JsonNode call(Session session, String tool, String arguments) {
        return calls.call(session, tool, JSON.readTree(arguments));
    }

    /** The data of a call that must succeed. */
    public JsonNode ok(Session session, String tool, String arguments) {
        JsonNode envelope = call(session, tool, arguments);
        assertThat(envelope.path("controlApiVersion").asString()).isEqualTo("1.0");
        assertThat(envelope.path("status").asString())
                .as("%s %s -> %s", tool, arguments, envelope)
                .isEqualTo("ok");
        return envelope.path("data");
    }

    /** The error code of a call that must fail. */
    public ErrorCode refused(Session session, String tool, String arguments) {
        JsonNode envelope = call(session, tool, arguments);
        assertThat(envelope.path("status").asString())
                .as("%s %s -> %s", tool, arguments, envelope)
                .isEqualTo("error");
        assertThat(envelope.path("message").asString()).isNotBlank();
        return ErrorCode.valueOf(envelope.path("code").asString());
    }

    /** The session's retry epoch, through {@code lomi_connect} like a client. */
    public RetryEpochId connect(Session session, Project project) {
        return new RetryEpochId(ok(session, "lomi_connect", "{\"workspaceId\":\"" + workspaceOf(project) + "\"}")
                .path("retryEpoch")
                .asString());
    }

    /** A queued operation of {@code session} in the project's default workspace. */
    public Operation reserve(Session session, RetryEpochId epoch, Project project, String tool, String key) {
        Reservation reservation = ledger.reserve(new ReserveRequest(
                session.id(),
                epoch,
                project.id(),
                new ToolName(tool),
                new RequestKey(key),
                JSON.readTree("{\"key\":\"" + key + "\"}"),
                new Target(workspaceOf(project), "resource-" + key, "", "")));
        assertThat(reservation).isInstanceOf(Reservation.Reserved.class);
        return ((Reservation.Reserved) reservation).operation();
    }

    @Override
    public void close() {
        chat.close();
        waits.close();
        runner.close();
        features.forEach(ToolFeature::close);
        terminals.close();
        sessions.close();
        ledger.close();
        own.ifPresent(BrokerCallsFixture::deleteQuietly);
    }

    /** Removes a directory this fixture made; what cannot be removed stays in the system's temp, as with JUnit's own. */
    private static void deleteQuietly(Path root) {
        try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // left for the system's temp cleanup
        }
    }
}

package dev.lomicontrol.broker;

import dev.lomicontrol.artifacts.ArtifactStore;
import dev.lomicontrol.catalog.ToolCatalog;
import dev.lomicontrol.core.DataDirectory;
import dev.lomicontrol.decisions.DecisionBoard;
import dev.lomicontrol.ledger.Ledger;
import dev.lomicontrol.pairing.Pairings;
import dev.lomicontrol.pairing.Sessions;
import dev.lomicontrol.pairing.YoloPolicy;
import dev.lomicontrol.projects.Projects;
import dev.lomicontrol.settings.Settings;
import dev.lomicontrol.terminal.TerminalOptions;
import dev.lomicontrol.terminal.TerminalSandbox;
import dev.lomicontrol.terminal.Terminals;
import java.security.SecureRandom;
import java.time.Clock;
import org.jspecify.annotations.Nullable;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The broker's domain services as beans. */
@Configuration(proxyBeanMethods = false)
public class BrokerServices {

    /**
     * The projects; when one holds the checkout this broker was started from, every status warns
     * (N11: its shells could rewrite what the next start runs).
     */
    @Bean
    Projects projects(Ledger ledger, Clock clock, BrokerRuntime runtime) {
        Projects projects = new Projects(ledger, clock);
        dev.lomicontrol.core.LauncherCheckout.warningForThisLauncher(projects.list().stream()
                        .map(dev.lomicontrol.projects.Project::root)
                        .toList())
                .ifPresent(runtime::warn);
        return projects;
    }

    /** Every declared tool, in the order {@code tools/list} shows them. */
    @Bean
    ToolCatalog toolCatalog() {
        return ToolCatalog.standard();
    }

    @Bean
    Pairings pairings(Clock clock) {
        return new Pairings(clock, new SecureRandom());
    }

    @Bean(destroyMethod = "close")
    Sessions sessions(Ledger ledger, Clock clock) {
        return new Sessions(ledger, clock);
    }

    @Bean
    YoloPolicy yoloPolicy(Ledger ledger, Pairings pairings, Sessions sessions, Clock clock) {
        return new YoloPolicy(ledger, pairings, sessions, clock);
    }

    @Bean(destroyMethod = "deleteRuntimeDirectory")
    BrokerRuntime brokerRuntime(Ledger ledger, Clock clock, DataDirectory dataDirectory) {
        BrokerRuntime runtime = new BrokerRuntime(
                ledger.instance().value(),
                clock.instant(),
                dataDirectory.root(),
                BrokerRuntime.createRuntimeDirectory());
        // never readable through any project, whatever a project contains (F12)
        dev.lomicontrol.files.BrokerDirectories.protect(runtime.dataDirectory());
        dev.lomicontrol.files.BrokerDirectories.protect(runtime.runtimeDirectory());
        int stale = runtime.claimAndSweepStale(); // the ledger holds the data directory's owner lock
        if (stale > 0) {
            org.slf4j.LoggerFactory.getLogger(BrokerServices.class)
                    .info("removed {} runtime directories earlier runs of this data directory left behind", stale);
        }
        return runtime;
    }

    /**
     * Real PTY terminals, sandboxed unless the admin turned that off; their shell-integration files
     * live in the per-start runtime directory. The data and runtime directories, the broker's log
     * (N6) and the chat connections' key files are hidden from shells; each project's caches live in
     * {@code <data>/sandbox-caches/} (N5).
     */
    @Bean(destroyMethod = "close")
    Terminals terminals(
            BrokerRuntime runtime,
            TerminalSandboxProperties sandbox,
            org.springframework.core.env.Environment environment,
            org.springframework.beans.factory.ObjectProvider<dev.lomicontrol.chat.Chat> chat) {
        // a log inside the data directory is hidden with it
        java.util.List<java.nio.file.Path> log = BrokerLogFile.hiddenFromShells(environment).stream()
                .filter(path -> !path.startsWith(runtime.dataDirectory()))
                .toList();
        TerminalSandbox confinement = new TerminalSandbox(
                sandbox.policy(
                        home(),
                        accountHome(),
                        dev.lomicontrol.core.UserDirectories.current().launcherBuild()),
                java.util.List.of(runtime.dataDirectory(), runtime.runtimeDirectory()),
                () -> java.util.stream.Stream.concat(log.stream(), chatKeyFiles(chat.getIfAvailable()).stream())
                        .toList(),
                TerminalSandbox::installedBubblewrap,
                java.util.Optional.of(runtime.dataDirectory().resolve(TerminalSandbox.PROJECT_CACHES)));
        confinement.warning().ifPresent(runtime::warn);
        Terminals terminals = new Terminals(
                TerminalOptions.defaults(runtime.runtimeDirectory().resolve("shell")), new SecureRandom(), confinement);
        // placeholders a killed run left in projects (N10); the ledger holds the data directory's owner lock
        int stale = terminals.recordPlaceholdersIn(runtime.dataDirectory().resolve(Terminals.placeholderRecordName()));
        if (stale > 0) {
            org.slf4j.LoggerFactory.getLogger(BrokerServices.class)
                    .info(
                            "removed {} sandbox placeholders an earlier run of this data directory left in projects",
                            stale);
        }
        return terminals;
    }

    /** Every key file a chat connection names now (security review 2026-12-06, N1): hidden from every shell. */
    private static java.util.List<java.nio.file.Path> chatKeyFiles(dev.lomicontrol.chat.@Nullable Chat chat) {
        if (chat == null) {
            return java.util.List.of();
        }
        return chat.connections().list().stream()
                .flatMap(connection -> connection.apiKeyFile().stream())
                .map(java.nio.file.Path::of)
                .toList();
    }

    /** The HOME the shells inherit (where most tools look for their secrets). */
    private static java.nio.file.Path home() {
        return dev.lomicontrol.core.UserDirectories.current().home();
    }

    /** The account's home from the password database (where ssh looks, whatever HOME says). */
    private static java.nio.file.Path accountHome() {
        return java.nio.file.Path.of(System.getProperty("user.home"));
    }

    /** Editor and terminal settings (durable, compare-and-set); agentControl is a read-only view of the broker's policy. */
    @Bean
    Settings settings(Ledger ledger, Clock clock, Pairings pairings, BrokerRuntime runtime) {
        return new Settings(ledger, clock, () -> {
            tools.jackson.databind.node.ObjectNode view =
                    tools.jackson.databind.node.JsonNodeFactory.instance.objectNode();
            view.put("yolo", pairings.yolo());
            view.put("instanceId", runtime.instanceId());
            return view;
        });
    }

    /** Private artifact copies in {@code <data>/artifacts} (0700), 4 MiB per file, 1 GiB, 64 artifacts, 24 h. */
    @Bean
    ArtifactStore artifactStore(DataDirectory dataDirectory, Clock clock) {
        return new ArtifactStore(
                dataDirectory.root().resolve("artifacts"), clock, new SecureRandom(), 4L << 20, 1L << 30, 64);
    }

    /** The browsers' Chromium processes (one per connection with a browser; none until the first lomi_browser_open). */
    @Bean(destroyMethod = "close")
    dev.lomicontrol.browser.Browsers browsers(BrowserProperties properties, Clock clock) {
        if (!properties.executable().isBlank()) {
            System.setProperty(
                    "lomi.browser.executable",
                    properties.executable()); // the host check (HostQualification) follows the setting
        }
        return new dev.lomicontrol.browser.Browsers(properties.options(), clock, new SecureRandom());
    }

    /** The origins the admin approved per project. */
    @Bean
    dev.lomicontrol.projects.BrowserOrigins browserOrigins(Ledger ledger, Clock clock) {
        return new dev.lomicontrol.projects.BrowserOrigins(ledger, clock);
    }

    @Bean
    DecisionBoard decisionBoard() {
        return new DecisionBoard();
    }
}

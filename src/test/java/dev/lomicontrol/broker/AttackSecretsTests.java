package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static dev.lomicontrol.broker.BrokerCallsFixture.workspaceOf;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.core.RetryEpochId;
import dev.lomicontrol.pairing.Session;
import dev.lomicontrol.projects.Project;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.lib.StoredConfig;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * Attack suite: secret files (SPEC §10: {@code .env*}, {@code .ssh}, keys, credentials, …) tried by
 * listing, reading, searching (also with globs that name them), diffing and logging in git
 * (worktree, staged, committed history, a whole directory), opening in the editor, importing as an
 * artifact, and creating or exporting under a secret name. No answer ever carries a secret's bytes,
 * and every refusal leaves nothing behind.
 */
class AttackSecretsTests {

    /** A marker that appears in every secret file and nowhere else. */
    static final String TOKEN = "TOKEN-93b1c7";

    static final List<String> SECRETS = List.of(
            ".env",
            ".env.production",
            "sub/.env",
            "keys/server.pem",
            "config/credentials.json",
            ".ssh/config",
            "id_ed25519",
            "store.JKS",
            ".npmrc");

    @TempDir
    Path temp;

    BrokerCallsFixture broker;
    Session session;
    Project project;
    RetryEpochId epoch;
    String ws;
    Path root;
    Git git;
    RevCommit withSecrets;
    final AtomicInteger keys = new AtomicInteger();

    @BeforeEach
    void open() throws Exception {
        broker = new BrokerCallsFixture(temp);
        project = broker.project("secrets");
        root = project.root();
        git = Git.init().setDirectory(root.toFile()).setInitialBranch("main").call();
        StoredConfig config = git.getRepository().getConfig();
        config.setString("user", null, "name", "Attack Test");
        config.setString("user", null, "email", "attack@example.com");
        config.save();
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/app.txt"), "app\n");
        Files.createDirectories(root.resolve("config"));
        Files.writeString(root.resolve("config/app.txt"), "config\n");
        for (String secret : SECRETS) {
            write(secret, TOKEN + "=first\n");
        }
        // committed as if by a careless human (the broker itself refuses to commit them)
        var add = git.add().addFilepattern("sub").addFilepattern("config");
        SECRETS.forEach(add::addFilepattern);
        add.call();
        withSecrets = git.commit().setMessage("with secrets").call();
        for (String secret : SECRETS) {
            write(secret, TOKEN + "=second\n");
        }
        write("sub/app.txt", "app changed\n");
        write("config/app.txt", "config changed\n");
        git.add().addFilepattern("sub/.env").addFilepattern("config/app.txt").call();
        session = broker.session();
        epoch = broker.connect(session, project);
        ws = workspaceOf(project);
    }

    @AfterEach
    void close() {
        git.close();
        broker.close();
    }

    @Test
    void listingsHideEverySecretAndSayTheyAreFiltered() {
        for (String directory : List.of("", "sub", "keys", "config")) {
            JsonNode list =
                    broker.ok(session, "lomi_files_list", json("workspaceId", ws, "relativeDirectory", directory));
            assertThat(list.path("filtered").asBoolean()).as(directory).isTrue();
            for (String secret : SECRETS) {
                assertThat(list.toString()).as(directory).doesNotContain("\"" + secret + "\"");
            }
        }
        assertThat(broker.refused(session, "lomi_files_list", json("workspaceId", ws, "relativeDirectory", ".ssh")))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    @Test
    void directReadsOfEverySecretAreScopeDenied() {
        for (String secret : SECRETS) {
            JsonNode answer = broker.call(session, "lomi_files_read", json("workspaceId", ws, "relativePath", secret));
            assertThat(answer.path("code").asString()).as(secret).isEqualTo("SCOPE_DENIED");
            assertThat(answer.toString()).doesNotContain(TOKEN);
        }
    }

    @Test
    void searchNeverOpensASecretEvenWhenAGlobNamesIt() {
        for (List<String> include : List.of(
                List.<String>of(),
                List.of("**/.env"),
                List.of(".env*", "**/*.pem", "**/credentials.json", ".ssh/**"),
                List.of("**"))) {
            for (String directory : List.of("", "sub", "config")) {
                ObjectNode arguments = (ObjectNode)
                        BrokerCallsFixture.JSON.readTree(json("workspaceId", ws, "relativeDirectory", directory));
                ObjectNode query = arguments.putObject("query");
                query.put("text", TOKEN);
                query.put("include", String.join(",", include));
                JsonNode found = broker.ok(session, "lomi_files_search", arguments.toString());
                assertThat(found.path("matches"))
                        .as("%s in %s", include, directory)
                        .isEmpty();
            }
        }
        ObjectNode inSecretDir =
                (ObjectNode) BrokerCallsFixture.JSON.readTree(json("workspaceId", ws, "relativeDirectory", ".ssh"));
        inSecretDir.putObject("query").put("text", TOKEN);
        assertThat(broker.refused(session, "lomi_files_search", inSecretDir.toString()))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    @Test
    void gitDiffsOfASecretAreScopeDeniedInTheWorktreeTheIndexAndHistory() {
        String observed = observation();
        for (String secret : SECRETS) {
            for (String comparison : List.of("worktree", "staged", "commit")) {
                ObjectNode arguments = (ObjectNode) BrokerCallsFixture.JSON.readTree(
                        json("workspaceId", ws, "relativePath", secret, "comparison", comparison));
                if (comparison.equals("commit")) {
                    arguments.put("commit", withSecrets.name());
                } else {
                    arguments.put("expectedObservationRevision", observed);
                }
                JsonNode answer = broker.call(session, "lomi_git_diff", arguments.toString());
                assertThat(answer.path("code").asString())
                        .as("%s %s", comparison, secret)
                        .isEqualTo("SCOPE_DENIED");
                assertThat(answer.toString()).doesNotContain(TOKEN);
            }
            assertThat(broker.refused(session, "lomi_git_history", json("workspaceId", ws, "relativePath", secret)))
                    .as(secret)
                    .isEqualTo(ErrorCode.SCOPE_DENIED);
        }
    }

    @Test
    void gitStatusAndCommitDetailNeverNameASecret() {
        JsonNode status = broker.ok(session, "lomi_git_status", json("workspaceId", ws));
        JsonNode commit = broker.ok(session, "lomi_git_commit", json("workspaceId", ws, "commit", withSecrets.name()));

        assertThat(status.path("filtered").asBoolean()).isTrue();
        for (String secret : SECRETS) {
            assertThat(status.toString()).doesNotContain("\"" + secret + "\"");
            assertThat(commit.toString()).doesNotContain("\"" + secret + "\"");
        }
        assertThat(commit.path("totalFiles").asInt())
                .as("sub/app.txt and config/app.txt only")
                .isEqualTo(2);
    }

    /**
     * A directory is not a secret, but git's path filter takes a directory as a prefix: a diff "of"
     * {@code sub} or {@code config} would print every file under it, secrets included.
     */
    @Test
    void aGitDiffOfADirectoryNeverPrintsTheSecretsInsideIt() {
        String observed = observation();
        for (String directory : List.of("sub", "config", "keys")) {
            for (String comparison : List.of("worktree", "staged", "commit")) {
                ObjectNode arguments = (ObjectNode) BrokerCallsFixture.JSON.readTree(
                        json("workspaceId", ws, "relativePath", directory, "comparison", comparison));
                if (comparison.equals("commit")) {
                    arguments.put("commit", withSecrets.name());
                } else {
                    arguments.put("expectedObservationRevision", observed);
                }
                JsonNode answer = broker.call(session, "lomi_git_diff", arguments.toString());
                assertThat(answer.toString())
                        .as("%s %s: %s", comparison, directory, answer)
                        .doesNotContain(TOKEN);
            }
        }
    }

    @Test
    void theEditorAndArtifactImportRefuseASecretAndKeepNothing() throws Exception {
        byte[] bytes = Files.readAllBytes(root.resolve(".env"));
        int panelsBefore = broker.ok(session, "lomi_panel_list", json("workspaceId", ws))
                .path("panels")
                .size();
        for (String secret : SECRETS) {
            String openKey = key();
            assertThat(broker.refused(
                            session,
                            "lomi_editor_open",
                            json(
                                    "workspaceId",
                                    ws,
                                    "relativePath",
                                    secret,
                                    "expectedRevision",
                                    broker.revision(),
                                    "retryEpoch",
                                    epoch.value(),
                                    "requestKey",
                                    openKey)))
                    .as(secret)
                    .isEqualTo(ErrorCode.SCOPE_DENIED);
            assertNoReceipt("lomi_editor_open", openKey);

            String importKey = key();
            JsonNode imported = broker.call(
                    session,
                    "lomi_artifact_import",
                    json(
                            "workspaceId",
                            ws,
                            "relativePath",
                            secret,
                            "kind",
                            "file",
                            "expectedByteLength",
                            bytes.length,
                            "expectedSha256",
                            AttackLinksTests.sha256(bytes),
                            "expectedRevision",
                            broker.revision(),
                            "retryEpoch",
                            epoch.value(),
                            "requestKey",
                            importKey));
            assertThat(AttackLinksTests.refusalCode(imported))
                    .as("%s: %s", secret, imported)
                    .isEqualTo("SCOPE_DENIED");
            assertThat(imported.toString()).doesNotContain(TOKEN);
            if (imported.path("status").asString().equals("ok")) {
                assertThat(imported.path("data").path("effectState").asString()).isEqualTo("none");
            }
        }
        assertThat(broker.ok(session, "lomi_panel_list", json("workspaceId", ws))
                        .path("panels")
                        .size())
                .isEqualTo(panelsBefore);
        assertThat(storedArtifacts()).isEmpty();
    }

    @Test
    void nothingIsCreatedRenamedOrExportedUnderASecretName() throws Exception {
        Files.writeString(root.resolve("harmless.txt"), "harmless\n");
        String rootRevision = directoryRevision("");
        String harmless = broker.ok(session, "lomi_files_read", json("workspaceId", ws, "relativePath", "harmless.txt"))
                .path("diskRevision")
                .asString();
        byte[] bytes = "harmless\n".getBytes(StandardCharsets.UTF_8);
        String sha = AttackLinksTests.sha256(bytes);
        String artifact = broker.ok(
                        session,
                        "lomi_artifact_import",
                        json(
                                "workspaceId",
                                ws,
                                "relativePath",
                                "harmless.txt",
                                "kind",
                                "file",
                                "expectedByteLength",
                                bytes.length,
                                "expectedSha256",
                                sha,
                                "expectedRevision",
                                broker.revision(),
                                "retryEpoch",
                                epoch.value(),
                                "requestKey",
                                key()))
                .path("result")
                .path("artifactId")
                .asString();

        for (String name : List.of(".env.local", "deploy.key", "id_rsa", "credentials")) {
            String createKey = key();
            JsonNode create = broker.call(
                    session,
                    "lomi_files_mutate",
                    mutate(
                            operation(
                                    "type",
                                    "create",
                                    "relativePath",
                                    name,
                                    "kind",
                                    "file",
                                    "expectedParentRevision",
                                    rootRevision),
                            createKey));
            assertThat(AttackLinksTests.refusalCode(create))
                    .as("create %s", name)
                    .isEqualTo("SCOPE_DENIED");

            String renameKey = key();
            JsonNode rename = broker.call(
                    session,
                    "lomi_files_mutate",
                    mutate(
                            operation(
                                    "type",
                                    "rename",
                                    "relativePath",
                                    "harmless.txt",
                                    "newName",
                                    name,
                                    "expectedDiskRevision",
                                    harmless,
                                    "expectedParentRevision",
                                    rootRevision),
                            renameKey));
            assertThat(AttackLinksTests.refusalCode(rename))
                    .as("rename to %s", name)
                    .isEqualTo("SCOPE_DENIED");

            String exportKey = key();
            JsonNode export = broker.call(
                    session,
                    "lomi_artifact_export",
                    json(
                            "workspaceId",
                            ws,
                            "artifactId",
                            artifact,
                            "expectedSha256",
                            sha,
                            "relativePath",
                            name,
                            "expectedParentRevision",
                            rootRevision,
                            "expectedRevision",
                            broker.revision(),
                            "retryEpoch",
                            epoch.value(),
                            "requestKey",
                            exportKey));
            assertThat(AttackLinksTests.refusalCode(export))
                    .as("export to %s", name)
                    .isEqualTo("SCOPE_DENIED");
            assertThat(root.resolve(name)).as(name).doesNotExist();
        }
        assertThat(root.resolve("harmless.txt")).hasContent("harmless\n");
        assertThat(directoryRevision("")).as("the root listing is unchanged").isEqualTo(rootRevision);
    }

    // --- helpers

    private void write(String path, String text) throws Exception {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    private String observation() {
        return broker.ok(session, "lomi_git_status", json("workspaceId", ws))
                .path("observationRevision")
                .asString();
    }

    private String directoryRevision(String directory) {
        return broker.ok(session, "lomi_files_list", json("workspaceId", ws, "relativeDirectory", directory))
                .path("directoryRevision")
                .asString();
    }

    private String key() {
        return "secret-" + keys.incrementAndGet();
    }

    private static JsonNode operation(Object... pairs) {
        return BrokerCallsFixture.JSON.readTree(json(pairs));
    }

    private String mutate(JsonNode operation, String key) {
        ObjectNode node = (ObjectNode) BrokerCallsFixture.JSON.readTree(json(
                "workspaceId",
                ws,
                "expectedRevision",
                broker.revision(),
                "retryEpoch",
                epoch.value(),
                "requestKey",
                key));
        node.set("operation", operation);
        return node.toString();
    }

    private void assertNoReceipt(String tool, String key) {
        assertThat(broker.refused(
                        session,
                        "lomi_operation_get",
                        json("retryEpoch", epoch.value(), "requestKey", key, "tool", tool)))
                .as("no receipt for %s %s", tool, key)
                .isEqualTo(ErrorCode.TARGET_NOT_FOUND);
    }

    private List<Path> storedArtifacts() throws Exception {
        Path dir = temp.resolve("artifacts");
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile)
                    .filter(p -> p.getFileName().toString().endsWith(".bin"))
                    .toList();
        }
    }
}

package dev.lomicontrol.broker;

import static dev.lomicontrol.broker.BrokerCallsFixture.json;
import static org.assertj.core.api.Assertions.assertThat;

import dev.lomicontrol.core.ErrorCode;
import dev.lomicontrol.testing.Agent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.revwalk.RevCommit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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

    @RegisterExtension
    final Agent agent = Agent.inProject("secrets");

    final AttackCalls attack = new AttackCalls(agent);
    final Path root = agent.project().root();
    Git git;
    RevCommit withSecrets;

    @BeforeEach
    void open() throws Exception {
        git = AttackCalls.gitRepository(root);
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
    }

    @AfterEach
    void close() {
        git.close();
    }

    @Test
    void listingsHideEverySecretAndSayTheyAreFiltered() {
        for (String directory : List.of("", "sub", "keys", "config")) {
            JsonNode list =
                    agent.ok("lomi_files_list", "workspaceId", agent.workspace(), "relativeDirectory", directory);
            assertThat(list.path("filtered").asBoolean()).as(directory).isTrue();
            for (String secret : SECRETS) {
                assertThat(list.toString()).as(directory).doesNotContain("\"" + secret + "\"");
            }
        }
        assertThat(agent.refused("lomi_files_list", "workspaceId", agent.workspace(), "relativeDirectory", ".ssh"))
                .isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    @Test
    void directReadsOfEverySecretAreScopeDenied() {
        for (String secret : SECRETS) {
            JsonNode answer = agent.call("lomi_files_read", "workspaceId", agent.workspace(), "relativePath", secret);
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
                ObjectNode arguments = (ObjectNode) BrokerCallsFixture.JSON.readTree(
                        json("workspaceId", agent.workspace(), "relativeDirectory", directory));
                ObjectNode query = arguments.putObject("query");
                query.put("text", TOKEN);
                query.put("include", String.join(",", include));
                JsonNode found = attack.ok("lomi_files_search", arguments.toString());
                assertThat(found.path("matches"))
                        .as("%s in %s", include, directory)
                        .isEmpty();
            }
        }
        ObjectNode inSecretDir = (ObjectNode)
                BrokerCallsFixture.JSON.readTree(json("workspaceId", agent.workspace(), "relativeDirectory", ".ssh"));
        inSecretDir.putObject("query").put("text", TOKEN);
        assertThat(attack.refused("lomi_files_search", inSecretDir.toString())).isEqualTo(ErrorCode.SCOPE_DENIED);
    }

    @Test
    void gitDiffsOfASecretAreScopeDeniedInTheWorktreeTheIndexAndHistory() {
        String observed = attack.observation();
        for (String secret : SECRETS) {
            for (String comparison : List.of("worktree", "staged", "commit")) {
                JsonNode answer = attack.call("lomi_git_diff", diffArguments(secret, comparison, observed));
                assertThat(answer.path("code").asString())
                        .as("%s %s", comparison, secret)
                        .isEqualTo("SCOPE_DENIED");
                assertThat(answer.toString()).doesNotContain(TOKEN);
            }
            assertThat(agent.refused("lomi_git_history", "workspaceId", agent.workspace(), "relativePath", secret))
                    .as(secret)
                    .isEqualTo(ErrorCode.SCOPE_DENIED);
        }
    }

    @Test
    void gitStatusAndCommitDetailNeverNameASecret() {
        JsonNode status = agent.ok("lomi_git_status", "workspaceId", agent.workspace());
        JsonNode commit = agent.ok("lomi_git_commit", "workspaceId", agent.workspace(), "commit", withSecrets.name());

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
        String observed = attack.observation();
        for (String directory : List.of("sub", "config", "keys")) {
            for (String comparison : List.of("worktree", "staged", "commit")) {
                JsonNode answer = attack.call("lomi_git_diff", diffArguments(directory, comparison, observed));
                assertThat(answer.toString())
                        .as("%s %s: %s", comparison, directory, answer)
                        .doesNotContain(TOKEN);
            }
        }
    }

    @Test
    void theEditorAndArtifactImportRefuseASecretAndKeepNothing() throws Exception {
        byte[] bytes = Files.readAllBytes(root.resolve(".env"));
        int panelsBefore = attack.panels();
        for (String secret : SECRETS) {
            String openKey = agent.key("secret");
            assertThat(attack.refused("lomi_editor_open", attack.durable(openKey, "relativePath", secret)))
                    .as(secret)
                    .isEqualTo(ErrorCode.SCOPE_DENIED);
            attack.assertNoReceipt("lomi_editor_open", openKey);

            String importKey = agent.key("secret");
            JsonNode imported = attack.call("lomi_artifact_import", attack.importFile(importKey, secret, bytes));
            assertThat(AttackCalls.refusalCode(imported))
                    .as("%s: %s", secret, imported)
                    .isEqualTo("SCOPE_DENIED");
            assertThat(imported.toString()).doesNotContain(TOKEN);
            if (imported.path("status").asString().equals("ok")) {
                assertThat(imported.path("data").path("effectState").asString()).isEqualTo("none");
            }
        }
        assertThat(attack.panels()).isEqualTo(panelsBefore);
        assertThat(attack.storedArtifacts()).isEmpty();
    }

    @Test
    void nothingIsCreatedRenamedOrExportedUnderASecretName() throws Exception {
        Files.writeString(root.resolve("harmless.txt"), "harmless\n");
        String rootRevision = attack.directoryRevision("");
        String harmless = attack.diskRevision("harmless.txt");
        byte[] bytes = "harmless\n".getBytes(StandardCharsets.UTF_8);
        String sha = AttackCalls.sha256(bytes);
        String artifact = attack.ok(
                        "lomi_artifact_import", attack.importFile(agent.key("secret"), "harmless.txt", bytes))
                .path("result")
                .path("artifactId")
                .asString();

        for (String name : List.of(".env.local", "deploy.key", "id_rsa", "credentials")) {
            String createKey = agent.key("secret");
            JsonNode create = attack.callMutate(AttackCalls.create(name, "file", rootRevision), createKey);
            assertThat(AttackCalls.refusalCode(create)).as("create %s", name).isEqualTo("SCOPE_DENIED");

            String renameKey = agent.key("secret");
            JsonNode rename =
                    attack.callMutate(AttackCalls.rename("harmless.txt", name, harmless, rootRevision), renameKey);
            assertThat(AttackCalls.refusalCode(rename)).as("rename to %s", name).isEqualTo("SCOPE_DENIED");

            String exportKey = agent.key("secret");
            JsonNode export =
                    attack.call("lomi_artifact_export", attack.exportTo(exportKey, artifact, sha, name, rootRevision));
            assertThat(AttackCalls.refusalCode(export)).as("export to %s", name).isEqualTo("SCOPE_DENIED");
            assertThat(root.resolve(name)).as(name).doesNotExist();
        }
        assertThat(root.resolve("harmless.txt")).hasContent("harmless\n");
        assertThat(attack.directoryRevision(""))
                .as("the root listing is unchanged")
                .isEqualTo(rootRevision);
    }

    // --- helpers

    private void write(String path, String text) throws Exception {
        Path file = root.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }

    /** The arguments of a git diff of {@code path}: against a commit names it, else the observation it expects. */
    private String diffArguments(String path, String comparison, String observed) {
        ObjectNode arguments =
                Agent.object("workspaceId", agent.workspace(), "relativePath", path, "comparison", comparison);
        if (comparison.equals("commit")) {
            arguments.put("commit", withSecrets.name());
        } else {
            arguments.put("expectedObservationRevision", observed);
        }
        return arguments.toString();
    }
}

package dev.lomicontrol;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One rule per row of the module table in docs/ARCHITECTURE.md: a module's classes depend on no
 * module of ours outside the row's "depends on" column, so the table is checked, not just stated.
 * The Spring-free rows ({@code core}, {@code tools}, and the {@code --mcp} path) also touch no
 * Spring, SQLite or Flyway class.
 */
class ModuleRulesTests {

    /** module → the modules of ours it may use (its own sub-packages always). Keep equal to docs/ARCHITECTURE.md. */
    static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("core", Set.of()),
            Map.entry("tools", Set.of("core")),
            Map.entry("ledger", Set.of("core")),
            Map.entry("projects", Set.of("core", "ledger")),
            Map.entry("files", Set.of("core")),
            Map.entry("editor", Set.of("core", "files", "settings")),
            Map.entry("artifacts", Set.of("core", "files")),
            Map.entry("settings", Set.of("core", "ledger")),
            Map.entry("git", Set.of("core", "files")),
            Map.entry("terminal", Set.of("core")),
            Map.entry("pairing", Set.of("core", "ledger")),
            Map.entry("decisions", Set.of("core")),
            Map.entry("episodes", Set.of("core", "ledger")),
            Map.entry("chat", Set.of("core", "ledger")),
            Map.entry("transport", Set.of()),
            Map.entry("discovery", Set.of("core")),
            Map.entry("ipc", Set.of("core", "discovery", "transport")),
            Map.entry("mcp", Set.of("core", "tools", "ipc", "transport", "discovery")),
            Map.entry("broker", Set.of("core", "tools", "ledger", "projects", "files", "editor", "artifacts", "settings", "git", "terminal",
                    "pairing", "decisions", "episodes", "chat", "transport", "discovery", "ipc")),
            Map.entry("console", Set.of("core", "ledger", "projects", "pairing", "decisions", "episodes", "chat", "broker", "discovery", "transport")));

    /** Modules that run in the {@code --mcp} helper or are loaded by it: no Spring, SQLite or Flyway. */
    static final List<String> SPRING_FREE = List.of("core", "tools", "mcp", "ipc", "transport", "discovery");

    static JavaClasses production;

    @BeforeAll
    static void importClasses() {
        production = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("/test-classes/")).importPackages("dev.lomicontrol");
    }

    static Stream<String> modules() {
        return new TreeSet<>(ALLOWED.keySet()).stream();
    }

    static Stream<String> springFree() {
        return SPRING_FREE.stream();
    }

    @ParameterizedTest(name = "{0} depends only on the modules its row names")
    @MethodSource("modules")
    void eachModuleDependsOnlyOnTheModulesItsRowNames(String module) {
        List<String> forbidden = new ArrayList<>();
        for (String other : ALLOWED.keySet()) {
            if (!other.equals(module) && !ALLOWED.get(module).contains(other)) {
                forbidden.add("dev.lomicontrol." + other + "..");
            }
        }
        noClasses().that().resideInAPackage("dev.lomicontrol." + module + "..").should().dependOnClassesThat()
                .resideInAnyPackage(forbidden.toArray(String[]::new)).because("docs/ARCHITECTURE.md lists what " + module + " depends on")
                .check(production);
    }

    /** Model providers (Spring AI and the SDKs under it) are the chat module's business alone: no other module, least of all the helper's path, loads them. */
    @org.junit.jupiter.api.Test
    void onlyTheChatModuleUsesSpringAiOrAProviderSdk() {
        noClasses().that().resideOutsideOfPackage("dev.lomicontrol.chat..").should().dependOnClassesThat()
                .resideInAnyPackage("org.springframework.ai..", "com.openai..", "com.anthropic..").check(production);
    }

    @ParameterizedTest(name = "{0} loads no Spring, SQLite or Flyway class")
    @MethodSource("springFree")
    void theHelpersPathLoadsNoSpringSqliteOrFlyway(String module) {
        noClasses().that().resideInAPackage("dev.lomicontrol." + module + "..").should().dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "org.sqlite..", "org.flywaydb..").check(production);
    }
}

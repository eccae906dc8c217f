package dev.lomicontrol;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.lang.syntax.elements.GivenClassesConjunction;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One rule per row of the module table in docs/ARCHITECTURE.md: a module's classes depend on no
 * module of ours outside the row's "depends on" column, so the table is checked, not just stated.
 * The Spring-free rows ({@code core}, {@code tools}, and the {@code --mcp} path) also touch no
 * Spring, SQLite or Flyway class.
 */
class ModuleRulesTests {

    /**
     * module → the modules of ours it may use. Keep equal to docs/ARCHITECTURE.md. A class belongs to
     * the longest module name its package starts with, so {@code terminal.tools} (the adapter of the
     * terminal tools) is a row of its own and {@code terminal} (the engine) does not include it.
     */
    static final Map<String, Set<String>> ALLOWED = Map.ofEntries(
            Map.entry("core", Set.of()),
            Map.entry("json", Set.of()),
            Map.entry("tools", Set.of("core", "json")),
            Map.entry("catalog", Set.of("core", "json", "tools")),
            Map.entry("ledger", Set.of("core")),
            Map.entry("projects", Set.of("core", "ledger")),
            Map.entry("files", Set.of("core")),
            Map.entry("editor", Set.of("core", "files", "settings")),
            Map.entry("artifacts", Set.of("core", "files")),
            Map.entry("settings", Set.of("core", "ledger")),
            Map.entry("git", Set.of("core", "files")),
            Map.entry("terminal", Set.of("core")),
            Map.entry("browser", Set.of("core")),
            Map.entry("android", Set.of("core")),
            Map.entry("pairing", Set.of("core", "ledger")),
            Map.entry("decisions", Set.of("core")),
            Map.entry("episodes", Set.of("core", "ledger")),
            Map.entry("chat", Set.of("core", "tools", "ledger")),
            Map.entry("operations", Set.of("core", "tools", "ledger", "projects", "pairing", "decisions")),
            Map.entry("layout.tools", Set.of("core", "tools", "ledger", "projects", "pairing", "operations")),
            Map.entry("session.tools", Set.of("core", "tools", "ledger", "projects", "pairing", "operations")),
            Map.entry("operations.tools", Set.of("core", "tools", "ledger", "projects", "pairing", "operations")),
            Map.entry(
                    "android.tools",
                    Set.of(
                            "core",
                            "tools",
                            "ledger",
                            "operations",
                            "pairing",
                            "projects",
                            "artifacts",
                            "android",
                            "terminal.api")),
            Map.entry(
                    "terminal.tools",
                    Set.of("core", "tools", "ledger", "projects", "pairing", "operations", "terminal", "settings")),
            Map.entry("files.tools", Set.of("core", "tools", "ledger", "projects", "pairing", "operations", "files")),
            Map.entry(
                    "editor.tools",
                    Set.of(
                            "core",
                            "tools",
                            "ledger",
                            "projects",
                            "pairing",
                            "operations",
                            "editor",
                            "files",
                            "files.tools",
                            "settings")),
            Map.entry(
                    "artifacts.tools",
                    Set.of(
                            "core",
                            "tools",
                            "ledger",
                            "projects",
                            "pairing",
                            "operations",
                            "artifacts",
                            "files",
                            "files.tools")),
            Map.entry(
                    "settings.tools",
                    Set.of("core", "tools", "ledger", "projects", "pairing", "operations", "decisions", "settings")),
            Map.entry(
                    "git.tools",
                    Set.of(
                            "core",
                            "json",
                            "tools",
                            "ledger",
                            "projects",
                            "pairing",
                            "operations",
                            "git",
                            "files",
                            "files.tools")),
            Map.entry("episodes.tools", Set.of("core", "tools", "pairing", "operations", "episodes")),
            Map.entry(
                    "browser.tools",
                    Set.of("core", "tools", "ledger", "projects", "pairing", "operations", "browser", "artifacts")),
            Map.entry("chat.tools", Set.of("core", "tools", "ledger", "projects", "pairing", "operations", "chat")),
            Map.entry("transport", Set.of()),
            Map.entry("discovery", Set.of("core", "json")),
            Map.entry("ipc", Set.of("core", "json", "discovery", "transport")),
            Map.entry(
                    "mcp",
                    Set.of(
                            "core",
                            "json",
                            "tools",
                            "catalog",
                            "session.api",
                            "files.api",
                            "ipc",
                            "transport",
                            "discovery")),
            Map.entry(
                    "broker",
                    Set.of(
                            "core",
                            "tools",
                            "catalog",
                            "ledger",
                            "projects",
                            "files",
                            "editor",
                            "artifacts",
                            "settings",
                            "git",
                            "terminal",
                            "pairing",
                            "decisions",
                            "episodes",
                            "transport",
                            "discovery",
                            "ipc",
                            "operations",
                            "browser",
                            "chat")),
            Map.entry(
                    "console",
                    Set.of(
                            "core",
                            "tools",
                            "catalog",
                            "ledger",
                            "projects",
                            "pairing",
                            "decisions",
                            "episodes",
                            "chat",
                            "broker",
                            "discovery",
                            "transport",
                            "operations",
                            "terminal",
                            "settings",
                            "browser",
                            "android")));

    /** Modules that run in the {@code --mcp} helper or are loaded by it: no Spring, SQLite or Flyway. */
    static final List<String> SPRING_FREE =
            List.of("core", "json", "tools", "catalog", "mcp", "ipc", "transport", "discovery");

    static JavaClasses production;

    @BeforeAll
    static void importClasses() {
        production = importProduction();
    }

    /** Our production classes (no test classes), for the rules here and in {@code ArchitectureTests}. */
    static JavaClasses importProduction() {
        return new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("/test-classes/"))
                .importPackages("dev.lomicontrol");
    }

    /** No class of {@code classes} depends on a class in any of {@code packages}. */
    static void noneDependOn(GivenClassesConjunction classes, String... packages) {
        classes.should().dependOnClassesThat().resideInAnyPackage(packages).check(production);
    }

    static Stream<String> modules() {
        return new TreeSet<>(ALLOWED.keySet()).stream();
    }

    static Stream<String> springFree() {
        return SPRING_FREE.stream();
    }

    /** A feature's contract: {@code <feature>.api} (Spring-free; no row: {@link #CONTRACT_USES} is its row). */
    static final java.util.regex.Pattern CONTRACT = java.util.regex.Pattern.compile("([a-z]+)\\.api(\\..*)?");

    /** What every feature's contract may use besides other contracts: the tool framework and the core types. */
    static final Set<String> CONTRACT_USES = Set.of("core", "json", "tools");

    /**
     * The module a package of ours belongs to: {@code <feature>.api} for a feature's contract, else the
     * longest module name it starts with (empty for the root package).
     */
    static Optional<String> moduleOf(String packageName) {
        String prefix = "dev.lomicontrol.";
        if (!packageName.startsWith(prefix)) {
            return Optional.empty();
        }
        String rest = packageName.substring(prefix.length());
        java.util.regex.Matcher contract = CONTRACT.matcher(rest);
        if (contract.matches()) {
            return Optional.of(contract.group(1) + ".api");
        }
        return ALLOWED.keySet().stream()
                .filter(module -> rest.equals(module) || rest.startsWith(module + "."))
                .max(Comparator.comparingInt(String::length));
    }

    @ParameterizedTest(name = "{0} depends only on the modules its row names")
    @MethodSource("modules")
    void eachModuleDependsOnlyOnTheModulesItsRowNames(String module) {
        ArchCondition<JavaClass> onlyItsRow =
                new ArchCondition<>("depend only on the modules of its row " + ALLOWED.get(module)) {
                    @Override
                    public void check(JavaClass owner, ConditionEvents events) {
                        for (Dependency dependency : owner.getDirectDependenciesFromSelf()) {
                            Optional<String> target =
                                    moduleOf(dependency.getTargetClass().getPackageName());
                            if (target.isPresent()
                                    && !target.get().equals(module)
                                    && !target.get().equals(contractOf(module))
                                    && !(module.equals("catalog") && isContract(target.get()))
                                    && !ALLOWED.get(module).contains(target.get())) {
                                events.add(SimpleConditionEvent.violated(
                                        dependency, dependency.getDescription() + " (module " + target.get() + ")"));
                            }
                        }
                    }
                };
        classes()
                .that(new DescribedPredicate<JavaClass>("belong to module " + module) {
                    @Override
                    public boolean test(JavaClass javaClass) {
                        return moduleOf(javaClass.getPackageName())
                                .filter(module::equals)
                                .isPresent();
                    }
                })
                .should(onlyItsRow)
                .because("docs/ARCHITECTURE.md lists what " + module + " depends on")
                .allowEmptyShould(false)
                .check(production);
    }

    static boolean isContract(String module) {
        return module.endsWith(".api");
    }

    /** A feature's own contract, which its engine and adapter use without naming it in their row. */
    static String contractOf(String module) {
        return module.substring(0, module.contains(".") ? module.indexOf('.') : module.length()) + ".api";
    }

    /** The modules each module's classes depend on (its own excluded). */
    static Map<String, Set<String>> dependencies() {
        Map<String, Set<String>> uses = new java.util.TreeMap<>();
        for (JavaClass owner : production) {
            moduleOf(owner.getPackageName()).ifPresent(module -> {
                for (Dependency dependency : owner.getDirectDependenciesFromSelf()) {
                    moduleOf(dependency.getTargetClass().getPackageName())
                            .filter(target -> !target.equals(module))
                            .ifPresent(target -> uses.computeIfAbsent(module, m -> new TreeSet<>())
                                    .add(target));
                }
            });
        }
        return uses;
    }

    @Test
    void aFeaturesContractUsesOnlyTheToolFrameworkTheCoreTypesAndOtherContracts() {
        Map<String, Set<String>> uses = dependencies();
        List<String> contracts =
                uses.keySet().stream().filter(ModuleRulesTests::isContract).toList();
        org.assertj.core.api.Assertions.assertThat(contracts).hasSizeGreaterThanOrEqualTo(13);
        for (String contract : contracts) {
            org.assertj.core.api.Assertions.assertThat(uses.get(contract))
                    .as("what %s uses (no engine, no adapter, no Spring)", contract)
                    .allMatch(target -> CONTRACT_USES.contains(target) || isContract(target));
        }
        noClasses()
                .that()
                .resideInAPackage("dev.lomicontrol.*.api..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage("org.springframework..", "org.sqlite..", "org.flywaydb..")
                .check(production);
    }

    /** Only the catalog knows every feature, and the broker knows no feature's adapter: a feature plugs in without editing either. */
    @Test
    void onlyTheCatalogUsesEveryFeatureAndTheBrokerNoAdapter() {
        Map<String, Set<String>> uses = dependencies();
        Set<String> contracts = new TreeSet<>(
                uses.keySet().stream().filter(ModuleRulesTests::isContract).toList());
        org.assertj.core.api.Assertions.assertThat(uses.get("catalog")).containsAll(contracts);
        uses.forEach((module, targets) -> {
            if (!module.equals("catalog")) {
                org.assertj.core.api.Assertions.assertThat(targets.containsAll(contracts))
                        .as("%s uses every feature's contract %s", module, contracts)
                        .isFalse();
            }
        });
        for (String module : List.of("broker", "operations", "tools", "catalog")) {
            org.assertj.core.api.Assertions.assertThat(uses.getOrDefault(module, Set.of()))
                    .as("%s uses a feature's adapter", module)
                    .noneMatch(target -> target.endsWith(".tools"));
        }
    }

    @Test
    void aContractPackageIsItsFeaturesContract() {
        org.assertj.core.api.Assertions.assertThat(moduleOf("dev.lomicontrol.terminal.api"))
                .contains("terminal.api");
        org.assertj.core.api.Assertions.assertThat(moduleOf("dev.lomicontrol.terminal.tools"))
                .contains("terminal.tools");
        org.assertj.core.api.Assertions.assertThat(contractOf("terminal.tools")).isEqualTo("terminal.api");
    }

    @Test
    void everyPackageOfOursBelongsToAModuleOfTheTable() {
        List<String> stray = production.stream()
                .map(JavaClass::getPackageName)
                .distinct()
                .filter(name ->
                        !name.equals("dev.lomicontrol") && moduleOf(name).isEmpty())
                .sorted()
                .toList();
        org.assertj.core.api.Assertions.assertThat(stray)
                .as("packages that no row of docs/ARCHITECTURE.md covers")
                .isEmpty();
    }

    /**
     * The browser engine is a plain library like the terminal engine: no Spring, SQLite or Flyway (it
     * talks to Chromium only). Its tools adapter is a feature bean like every other.
     */
    @org.junit.jupiter.api.Test
    void theBrowserEngineLoadsNoSpringSqliteOrFlyway() {
        noneDependOn(
                noClasses()
                        .that()
                        .resideInAPackage("dev.lomicontrol.browser..")
                        .and()
                        .resideOutsideOfPackage("dev.lomicontrol.browser.tools.."),
                "org.springframework..",
                "org.sqlite..",
                "org.flywaydb..");
    }

    /** Model providers (Spring AI and the SDKs under it) are the chat module's business alone: no other module, least of all the helper's path, loads them. */
    @org.junit.jupiter.api.Test
    void onlyTheChatModuleUsesSpringAiOrAProviderSdk() {
        noneDependOn(
                noClasses().that().resideOutsideOfPackage("dev.lomicontrol.chat.."),
                "org.springframework.ai..",
                "com.openai..",
                "com.anthropic..");
    }

    /**
     * Spring Data JDBC (and Spring's JDBC under it) stays with the store (ADR 0012): the ledger, which
     * binds it to its single writer, and the engines whose state is aggregates on that store.
     */
    @org.junit.jupiter.api.Test
    void onlyTheStoreAndItsAggregateModulesUseSpringDataJdbc() {
        noneDependOn(
                noClasses()
                        .that()
                        .resideOutsideOfPackages(
                                "dev.lomicontrol.ledger..",
                                "dev.lomicontrol.settings",
                                "dev.lomicontrol.episodes",
                                "dev.lomicontrol.chat"),
                "org.springframework.data..",
                "org.springframework.jdbc..");
    }

    @ParameterizedTest(name = "{0} loads no Spring, SQLite or Flyway class")
    @MethodSource("springFree")
    void theHelpersPathLoadsNoSpringSqliteOrFlyway(String module) {
        noneDependOn(
                noClasses().that().resideInAPackage("dev.lomicontrol." + module + ".."),
                "org.springframework..",
                "org.sqlite..",
                "org.flywaydb..");
    }
}

package dev.lomicontrol.broker;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import dev.lomicontrol.operations.ToolFeature;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.stereotype.Component;

/**
 * The broker collects its features as Spring beans; the tests build them by hand in
 * {@link BrokerCallsFixture}. These two lists must be the same, or a test would pass on a broker
 * that production never builds (or miss a feature it does).
 */
class FeatureListTests {

    @TempDir
    Path temp;

    @Test
    void theFixtureBuildsEveryFeatureTheBrokerCollectsAndNothingElse() {
        Set<String> production = new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("dev.lomicontrol")
                        .stream()
                        .filter(type -> type.isAssignableTo(ToolFeature.class) && !type.isInterface())
                        .map(JavaClass::getName)
                        .collect(Collectors.toCollection(java.util.TreeSet::new));
        try (BrokerCallsFixture broker = new BrokerCallsFixture(temp)) {
            Set<String> built = broker.features.stream()
                    .map(feature -> feature.getClass().getName())
                    .filter(name -> !name.startsWith(BrokerCallsFixture.class.getName()))
                    .collect(Collectors.toCollection(java.util.TreeSet::new));
            assertThat(built).isEqualTo(production).hasSizeGreaterThan(10);
        }
    }

    @Test
    void everyFeatureIsABeanOfItsOwn() {
        new ClassFileImporter()
                        .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                        .importPackages("dev.lomicontrol")
                        .stream()
                        .filter(type -> type.isAssignableTo(ToolFeature.class) && !type.isInterface())
                        .forEach(type -> assertThat(type.isAnnotatedWith(Component.class))
                                .as("%s is a @Component (Spring collects the features)", type.getName())
                                .isTrue());
    }
}

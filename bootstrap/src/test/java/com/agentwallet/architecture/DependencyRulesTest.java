package com.agentwallet.architecture;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Pattern;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The module boundaries, checked on the compiled classes: the core depends on the JDK alone,
 * adapters never call each other, and the edge they share calls none of them. Each rule is a function of the root package, so the same rule is
 * run on the real code (it must pass) and on the fixture classes under
 * {@code com.agentwallet.archfixture}, which break it on purpose (it must report them): a rule that
 * cannot fail proves nothing, and the adapter modules hold no classes yet.
 */
class DependencyRulesTest {
    static final String ROOT = "com.agentwallet";
    static final String FIXTURE_ROOT = "com.agentwallet.archfixture";

    /**
     * Leaves out test classes of any build folder: ArchUnit's {@code DO_NOT_INCLUDE_TESTS} knows only
     * {@code target/test-classes}, not the {@code target-*} folders of {@code -Dbuild.folder=...}.
     */
    private static final Pattern TEST_CLASSES = Pattern.compile(".*/target[^/]*/test-classes/.*");
    private static final ImportOption NO_TEST_CLASSES_IN_ANY_BUILD_FOLDER = location -> !location.matches(TEST_CLASSES);
    private static final ImportOption NO_FIXTURES = location -> !location.contains("/com/agentwallet/archfixture/");
    /** Leaves out other modules' test-jars (core's fixtures), which a packaged reactor build puts on the classpath. */
    private static final ImportOption NO_TEST_JARS = location -> !location.contains("-tests.jar");

    private static JavaClasses production;
    private static JavaClasses fixtures;

    @BeforeAll
    static void importClasses() {
        production = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(NO_TEST_CLASSES_IN_ANY_BUILD_FOLDER)
                .withImportOption(NO_FIXTURES)
                .withImportOption(NO_TEST_JARS)
                .importPackages(ROOT);
        fixtures = new ClassFileImporter().importPackages(FIXTURE_ROOT);
    }

    /** Classes of {@code <root>.core..} depend only on java.., javax.crypto.. and {@code <root>.core..}. */
    static ArchRule coreDependsOnlyOnTheJdk(String root) {
        return classes().that().resideInAPackage(root + ".core..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("java..", "javax.crypto..", root + ".core..")
                .as("classes in " + root + ".core.. should depend only on java.., javax.crypto.. and " + root
                        + ".core..");
    }

    /** No adapter {@code <root>.adapters.<name>..} depends on another; empty while the adapter modules are. */
    static ArchRule adaptersDoNotDependOnEachOther(String root) {
        return slices().matching(root + ".adapters.(*)..")
                .should().notDependOnEachOther()
                .allowEmptyShould(true);
    }

    /** What the driving adapters share, {@code <root>.edge..}, depends on no adapter: else they would, through it. */
    static ArchRule edgeDependsOnNoAdapter(String root) {
        return noClasses().that().resideInAPackage(root + ".edge..")
                .should().dependOnClassesThat().resideInAPackage(root + ".adapters..")
                .as("classes in " + root + ".edge.. should not depend on " + root + ".adapters..");
    }

    @Test
    void theRealImportHoldsTheCoreAndNoFixtureOrTestClass() {
        assertThat(production.contain("com.agentwallet.core.money.Usdc")).isTrue();
        assertThat(production.stream().map(JavaClass::getName))
                .hasSizeGreaterThan(50)
                .noneMatch(name -> name.startsWith(FIXTURE_ROOT + "."))
                .noneMatch(name -> name.startsWith("com.agentwallet.core.testing."))
                .doesNotContain(DependencyRulesTest.class.getName());
    }

    @Test
    void theCoreDependsOnlyOnTheJdkAndItself() {
        coreDependsOnlyOnTheJdk(ROOT).check(production);
    }

    @Test
    void adaptersDoNotDependOnEachOther() {
        adaptersDoNotDependOnEachOther(ROOT).check(production);
    }

    @Test
    void theEdgeDependsOnNoAdapter() {
        assertThat(production.contain("com.agentwallet.edge.session.SessionTokens")).isTrue();
        edgeDependsOnNoAdapter(ROOT).check(production);
    }

    @Test
    void theEdgeRuleReportsAnEdgeClassUsingAnAdapter() {
        EvaluationResult result = edgeDependsOnNoAdapter(FIXTURE_ROOT).evaluate(fixtures);

        assertThat(result.hasViolation()).isTrue();
        String report = String.join("\n", result.getFailureReport().getDetails());
        assertThat(report).contains("BadEdgeOnAdapter", "AdapterThree").doesNotContain("GoodEdge");
    }

    @Test
    void theCoreRuleReportsNonJdkAndNonCryptoDependencies() {
        ArchRule rule = coreDependsOnlyOnTheJdk(FIXTURE_ROOT);
        EvaluationResult result = rule.evaluate(fixtures);

        assertThat(result.hasViolation()).isTrue();
        List<String> details = result.getFailureReport().getDetails();
        assertThat(details)
                .anyMatch(d -> d.contains("BadCoreOnJdk") && d.contains("javax.sql.DataSource"))
                .anyMatch(d -> d.contains("BadCoreOnLibrary") && d.contains("com.tngtech.archunit.core.domain.JavaClass"))
                .noneMatch(d -> d.contains("GoodCore"));
        assertThatThrownBy(() -> rule.check(fixtures)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("BadCoreOnJdk");
    }

    @Test
    void theAdapterRuleReportsOneAdapterUsingAnother() {
        ArchRule rule = adaptersDoNotDependOnEachOther(FIXTURE_ROOT);
        EvaluationResult result = rule.evaluate(fixtures);

        assertThat(result.hasViolation()).isTrue();
        String report = String.join("\n", result.getFailureReport().getDetails());
        assertThat(report).contains("AdapterOne", "AdapterTwo").doesNotContain("AdapterThree");
        assertThatThrownBy(() -> rule.check(fixtures)).isInstanceOf(AssertionError.class)
                .hasMessageContaining("AdapterOne");
    }
}

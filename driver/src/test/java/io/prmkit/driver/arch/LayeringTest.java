package io.prmkit.driver.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The driver's layers (docs/driver.md): platform ← cmd ← core ← res ← eth ← dp, each package using
 * only the ones before it (and the root package's {@code Mlx5Exception}); no package cycles in the
 * driver or in soft-hca; and the driver's main code never imports soft-hca (they meet at the
 * platform interface only; the driver's tests use soft-hca as a device). Main classes only.
 */
class LayeringTest {
    private static final JavaClasses DRIVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.prmkit.driver");
    private static final JavaClasses SOFT_HCA = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.prmkit.softhca");

    @Test
    void theClassesAreThere() {
        // a rule over no classes passes: make sure both sides were found
        assertTrue(DRIVER.size() > 40, "driver classes: " + DRIVER.size());
        assertTrue(SOFT_HCA.size() > 40, "soft-hca classes: " + SOFT_HCA.size());
    }

    @Test
    void eachLayerUsesOnlyTheLayersBelowIt() {
        layeredArchitecture().consideringOnlyDependenciesInLayers()
                .layer("cmd").definedBy("io.prmkit.driver.cmd..")
                .layer("core").definedBy("io.prmkit.driver.core..")
                .layer("res").definedBy("io.prmkit.driver.res..")
                .layer("eth").definedBy("io.prmkit.driver.eth..")
                .layer("dp").definedBy("io.prmkit.driver.dp..")
                .whereLayer("dp").mayNotBeAccessedByAnyLayer()
                .whereLayer("eth").mayOnlyBeAccessedByLayers("dp")
                .whereLayer("res").mayOnlyBeAccessedByLayers("eth", "dp")
                .whereLayer("core").mayOnlyBeAccessedByLayers("res", "eth", "dp")
                .whereLayer("cmd").mayOnlyBeAccessedByLayers("core", "res", "eth", "dp")
                .check(DRIVER);
    }

    @Test
    void theDriversPackagesHaveNoCycles() {
        slices().matching("io.prmkit.driver.(*)..").should().beFreeOfCycles().check(DRIVER);
    }

    @Test
    void softHcasPackagesHaveNoCycles() {
        slices().matching("io.prmkit.softhca.(*)..").should().beFreeOfCycles().check(SOFT_HCA);
    }

    @Test
    void theDriverNeverImportsSoftHca() {
        noClasses().that().resideInAPackage("io.prmkit.driver..")
                .should().dependOnClassesThat().resideInAPackage("io.prmkit.softhca..")
                .check(DRIVER);
    }
}

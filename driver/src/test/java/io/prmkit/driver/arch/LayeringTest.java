package io.prmkit.driver.arch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import org.junit.jupiter.api.Test;

/**
 * The driver's layers (docs/driver.md): platform ← cmd ← core ← res ← eth ← dp, each package using
 * only the ones before it (and the root package's {@code Mlx5Exception}); {@code devx}, the DEVX
 * transport and device, beside {@code core} on {@code cmd} and {@code core}, used by no layer (res,
 * eth and dp reach it only through core's interfaces), and the only package that uses rdma-core's
 * bindings ({@code io.prmkit.platform.devx}); no package cycles in the driver or in soft-hca, their root
 * packages included; and the driver's main code never imports soft-hca (they meet at the platform
 * interface only; the driver's tests use soft-hca as a device). Main classes only, except the last
 * rule: the driver's tests use soft-hca only through its API packages ({@link #SOFT_HCA_API}).
 */
class LayeringTest {
    /** The driver's main classes (also {@link ClassNamesTest}'s). */
    static final JavaClasses DRIVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.prmkit.driver");
    /** soft-hca's main classes (also {@link ClassNamesTest}'s). */
    static final JavaClasses SOFT_HCA = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            // soft-hca's test-jar is on this module's test classpath (DevxBackEndTest's stand-in build): not main code
            .withImportOption(location -> !location.contains("-tests.jar"))
            .importPackages("io.prmkit.softhca");

    /**
     * soft-hca's API: {@code SoftHca} and its options, faults and caps ({@code io.prmkit.softhca}), the
     * wire ({@code .wire}: ports, cables, taps, frame parsing) and the VFIO stand-in ({@code .vfio}).
     * Its other packages ({@code cmd}, {@code datapath}, {@code device}) are the model's internals: a
     * test that builds or reads them tests the model's wiring, not a device, and breaks when it changes.
     */
    static final String[] SOFT_HCA_API = {"io.prmkit.softhca", "io.prmkit.softhca.wire", "io.prmkit.softhca.vfio"};
    /** The driver's test classes as well as its main ones, from this module's own class directories. */
    private static final JavaClasses DRIVER_AND_TESTS = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_JARS)
            .importPackages("io.prmkit.driver");

    /** No class outside soft-hca, except those in {@code allowed} (packages), uses soft-hca outside its API packages. */
    static com.tngtech.archunit.lang.ArchRule softHcaOnlyThroughItsApi(String... allowed) {
        return noClasses().that().resideOutsideOfPackage("io.prmkit.softhca..")
                .and().resideOutsideOfPackages(allowed)
                .should().dependOnClassesThat(com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage("io.prmkit.softhca..")
                        .and(com.tngtech.archunit.base.DescribedPredicate.not(
                                com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage(SOFT_HCA_API))))
                .as("classes outside soft-hca use it only through " + String.join(", ", SOFT_HCA_API));
    }

    @Test
    void theDriversTestsUseSoftHcaOnlyThroughItsApi() {
        assertTrue(DRIVER_AND_TESTS.size() > DRIVER.size() + 40, "driver test classes: " + (DRIVER_AND_TESTS.size() - DRIVER.size()));
        // allowed: the deliberate violation theSurfaceRuleSeesAClassReachingIntoSoftHca checks
        softHcaOnlyThroughItsApi("io.prmkit.driver.arch.surfacefixture..").check(DRIVER_AND_TESTS);
    }

    @Test
    void theSurfaceRuleSeesAClassReachingIntoSoftHca() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.prmkit.driver.arch.surfacefixture");
        assertTrue(fixture.contain(io.prmkit.driver.arch.surfacefixture.ReachesIntoSoftHca.class), "fixture imported");
        AssertionError e = assertThrows(AssertionError.class, () -> softHcaOnlyThroughItsApi().check(fixture));
        assertTrue(e.getMessage().contains("io.prmkit.softhca.device.Iommu"), e.getMessage());
    }

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
                .layer("devx").definedBy("io.prmkit.driver.devx..")
                .whereLayer("dp").mayNotBeAccessedByAnyLayer()
                .whereLayer("devx").mayNotBeAccessedByAnyLayer()
                .whereLayer("eth").mayOnlyBeAccessedByLayers("dp")
                .whereLayer("res").mayOnlyBeAccessedByLayers("eth", "dp")
                .whereLayer("core").mayOnlyBeAccessedByLayers("res", "eth", "dp", "devx")
                .whereLayer("cmd").mayOnlyBeAccessedByLayers("core", "res", "eth", "dp", "devx")
                .check(DRIVER);
    }

    @Test
    void onlyTheDevxPackageUsesRdmaCoresBindings() {
        noClasses().that().resideOutsideOfPackage("io.prmkit.driver.devx..")
                .should().dependOnClassesThat().resideInAnyPackage("io.prmkit.platform.devx..", "io.prmkit.devx..")
                .check(DRIVER);
        noClasses().that().resideInAPackage("io.prmkit.driver.devx..")
                .should().dependOnClassesThat().resideInAnyPackage("io.prmkit.driver.res..", "io.prmkit.driver.eth..", "io.prmkit.driver.dp..")
                .check(DRIVER);
    }

    /**
     * One slice per package below {@code root}, and one for {@code root} itself: ArchUnit's
     * {@code matching("root.(*)..")} leaves the root package's classes out, so a cycle through them
     * (soft-hca's {@code SoftHca}/{@code CapsProfile} and {@code cmd}) would go unseen.
     */
    static SliceAssignment packagesOf(String root) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                String p = c.getPackageName();
                if (p.equals(root)) return SliceIdentifier.of(root);
                if (!p.startsWith(root + ".")) return SliceIdentifier.ignore();
                return SliceIdentifier.of(root + "." + p.substring(root.length() + 1).split("\\.")[0]);
            }

            @Override
            public String getDescription() {
                return "the packages of " + root + ", " + root + " itself included";
            }
        };
    }

    @Test
    void theDriversPackagesHaveNoCycles() {
        slices().assignedFrom(packagesOf("io.prmkit.driver")).should().beFreeOfCycles().check(DRIVER);
    }

    @Test
    void softHcasPackagesHaveNoCycles() {
        slices().assignedFrom(packagesOf("io.prmkit.softhca")).should().beFreeOfCycles().check(SOFT_HCA);
    }

    @Test
    void theCycleRuleSeesACycleThroughARootPackage() {
        // A rule that cannot fail proves nothing: a root-package class and a subpackage class that use each other.
        JavaClasses fixture = new ClassFileImporter().importPackages("io.prmkit.driver.arch.cyclefixture");
        assertTrue(fixture.size() >= 2, "fixture classes: " + fixture.size());
        assertThrows(AssertionError.class,
                () -> slices().assignedFrom(packagesOf("io.prmkit.driver.arch.cyclefixture")).should().beFreeOfCycles().check(fixture));
        // what the old rule did: the root package's classes are in no slice, so it saw no cycle
        slices().matching("io.prmkit.driver.arch.cyclefixture.(*)..").should().beFreeOfCycles().allowEmptyShould(true).check(fixture);
    }

    @Test
    void theDriverNeverImportsSoftHca() {
        noClasses().that().resideInAPackage("io.prmkit.driver..")
                .should().dependOnClassesThat().resideInAPackage("io.prmkit.softhca..")
                .check(DRIVER);
    }
}

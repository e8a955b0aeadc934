package io.prmkit.maven;

import io.prmkit.pipeline.Inputs;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.apache.maven.execution.MavenSession;
import org.apache.maven.model.Plugin;
import org.apache.maven.model.PluginExecution;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecution;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugin.descriptor.PluginDescriptor;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.project.MavenProject;
import org.codehaus.plexus.util.xml.Xpp3Dom;

/**
 * What {@code generate} and {@code generate-test} share. The mojo only gathers parameters, calls
 * {@link GenerationTask} and registers the output as a source root; it holds no state of its own
 * between executions, so it is safe in parallel builds.
 */
abstract class AbstractGenerateMojo extends AbstractMojo {

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    @Parameter(defaultValue = "${plugin}", readonly = true, required = true)
    PluginDescriptor plugin;

    @Parameter(defaultValue = "${mojoExecution}", readonly = true, required = true)
    MojoExecution mojoExecution;

    @Parameter(defaultValue = "${session}", readonly = true, required = true)
    MavenSession session;

    /** Ant-style patterns, relative to the source directory, of the specs to compile. Default: <code>**&#47;*.prm</code>. */
    @Parameter
    List<String> includes;

    /** Ant-style patterns, relative to the source directory, of files to leave out. */
    @Parameter
    List<String> excludes;

    /**
     * Prefix for the Java packages of generated classes: a struct in spec package {@code mlx5} is
     * generated into {@code <packagePrefix>.mlx5}. Empty: the spec package itself.
     */
    @Parameter(property = "prmkit.packagePrefix", defaultValue = "")
    String packagePrefix;

    /**
     * C headers in the Linux mlx5_ifc style (e.g. the kernel's {@code include/linux/mlx5/mlx5_ifc.h})
     * to import into spec package {@code mlx5} and generate together with the specs. A header's
     * {@code #include "x.h"} of a file next to it is imported too. Relative paths are relative to
     * the project.
     */
    @Parameter
    List<File> headers;

    /** Skip generation (and do not add the output directory as a source root). */
    @Parameter(property = "prmkit.skip", defaultValue = "false")
    boolean skip;

    /** Fail the build when the specs have warnings, as when they have errors. */
    @Parameter(property = "prmkit.failOnWarnings", defaultValue = "false")
    boolean failOnWarnings;

    /**
     * Fail at once when the project's compiler is set to a Java release older than 22 (the generated
     * code needs the final {@code java.lang.foreign}), rather than leave javac to fail on generated
     * files. False when these sources are compiled by another execution or tool.
     */
    @Parameter(property = "prmkit.checkRelease", defaultValue = "true")
    boolean checkRelease;

    /**
     * Fail at once when {@code io.prmkit:prmkit-layout}, the support class every generated class
     * imports, is not among the project's dependencies for these sources (compile scope for
     * {@code generate}, any scope for {@code generate-test}), rather than leave javac to fail on every
     * generated file. False when these sources are compiled by another execution or tool.
     */
    @Parameter(property = "prmkit.checkSupport", defaultValue = "true")
    boolean checkSupport;

    abstract File sourceDirectory();

    abstract File outputDirectory();

    /** The goal's default source directory, relative to the project's base directory. */
    abstract String defaultSourceDirectory();

    abstract void addSourceRoot(String directory);

    /** Whether the output is test sources (compiled by default-testCompile, with testRelease). */
    abstract boolean testSources();

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        String goal = mojoExecution.getGoal();
        if (skip) {
            getLog().info("Skipping prmkit:" + goal + " (prmkit.skip is true)");
            return;
        }
        if (checkRelease) {
            var problem = CompilerRelease.problem(CompilerRelease.declared(compilerConfiguration(), this::property, testSources()), goal);
            if (problem.isPresent()) throw new MojoFailureException(problem.get());
        }
        if (checkSupport) {
            // Collected, not resolved (requiresDependencyCollection): no jar needs to exist yet, e.g. a
            // reactor sibling that has not been packaged.
            var collected = project.getArtifacts().stream()
                    .map(a -> new SupportDependency.Coordinates(a.getGroupId(), a.getArtifactId())).toList();
            var problem = SupportDependency.problem(collected, goal, testSources(), plugin.getVersion());
            if (problem.isPresent()) throw new MojoFailureException(problem.get());
        }
        Path basedir = project.getBasedir().toPath();
        Path sourceDir = sourceDirectory().toPath().toAbsolutePath().normalize();
        Path outputDir = outputDirectory().toPath().toAbsolutePath().normalize();
        Path stateFile = Path.of(project.getBuild().getDirectory(), "prmkit-maven-plugin",
                goal + "-" + mojoExecution.getExecutionId(), "state.txt");
        boolean explicitSource = !sourceDir.equals(basedir.resolve(defaultSourceDirectory()).toAbsolutePath().normalize());

        try {
            GenerationTask.Request request = new GenerationTask.Request(basedir, sourceDir, outputDir, stateFile,
                    includes, excludes, packagePrefix, failOnWarnings, explicitSource, PluginFingerprint.of(plugin),
                    headers == null ? List.of() : headers.stream().map(f -> f.toPath().toAbsolutePath().normalize()).toList());
            new GenerationTask(new PrmkitPipeline(), new MavenReporter(getLog())).run(request);
        } catch (GenerationException e) {
            throw new MojoFailureException(e.getMessage());
        } catch (IOException e) {
            // In words, without Java exception names: "target/x/Y.java: No space left on device".
            throw new MojoExecutionException("prmkit:" + goal + " failed: " + Inputs.describe(e, outputDir), e);
        } catch (RuntimeException | LinkageError e) {
            // A bug in prmkit (or a broken plugin jar), not in the user's specs: keep the stack trace.
            throw new MojoExecutionException("prmkit:" + goal + " hit an internal error: " + e, e);
        }

        // Also on the up-to-date path: the compiler must see the sources every build.
        if (Files.isDirectory(outputDir)) {
            addSourceRoot(outputDir.toString());
            getLog().debug("Added source root " + outputDir);
        }
    }

    /** A user property (-D) over the project's. */
    private String property(String name) {
        String v = session == null ? null : session.getUserProperties().getProperty(name);
        return v != null ? v : project.getProperties().getProperty(name);
    }

    /** A parameter of maven-compiler-plugin: its compile (or testCompile) execution's configuration over the plugin's. */
    private Function<String, String> compilerConfiguration() {
        Plugin compiler = project.getBuild().getPluginsAsMap().get("org.apache.maven.plugins:maven-compiler-plugin");
        if (compiler == null) return k -> null;
        PluginExecution execution = compiler.getExecutionsAsMap().get(testSources() ? "default-testCompile" : "default-compile");
        Xpp3Dom own = execution != null && execution.getConfiguration() instanceof Xpp3Dom x ? x : null;
        Xpp3Dom shared = compiler.getConfiguration() instanceof Xpp3Dom x ? x : null;
        return k -> {
            Xpp3Dom c = own != null ? own.getChild(k) : null;
            if (c == null && shared != null) c = shared.getChild(k);
            return c == null ? null : c.getValue();
        };
    }
}

package io.prmkit.maven;

import io.prmkit.pipeline.Inputs;
import java.io.File;
import java.io.IOException;
import java.util.List;
import org.apache.maven.plugin.AbstractMojo;
import org.apache.maven.plugin.MojoExecutionException;
import org.apache.maven.plugin.MojoFailureException;
import org.apache.maven.plugins.annotations.LifecyclePhase;
import org.apache.maven.plugins.annotations.Mojo;
import org.apache.maven.plugins.annotations.Parameter;
import org.apache.maven.plugins.annotations.ResolutionScope;
import org.apache.maven.project.MavenProject;

/**
 * Writes a browsable HTML reference of the project's {@code .prm} specs (the same site as
 * {@code prmkit doc}): an index with search, one page per structure with its PRM bit diagram,
 * enum pages and back-links. Open {@code target/prm-doc/index.html}; no server is needed.
 * Run it with {@code mvn prmkit:doc}, or bind it to a phase (default: {@code package}).
 */
@Mojo(name = "doc", defaultPhase = LifecyclePhase.PACKAGE, threadSafe = true, requiresDependencyResolution = ResolutionScope.NONE)
public class DocMojo extends AbstractMojo {

    @Parameter(defaultValue = "${project}", readonly = true, required = true)
    MavenProject project;

    /** Directory searched for specs. A missing default directory is not an error. */
    @Parameter(defaultValue = "${project.basedir}/src/main/prm", required = true)
    File sourceDirectory;

    /** Directory the site is written to. */
    @Parameter(property = "prmkit.doc.outputDirectory", defaultValue = "${project.build.directory}/prm-doc", required = true)
    File outputDirectory;

    /** Ant-style patterns, relative to the source directory, of the specs. Default: <code>**&#47;*.prm</code>. */
    @Parameter
    List<String> includes;

    /** Ant-style patterns, relative to the source directory, of files to leave out. */
    @Parameter
    List<String> excludes;

    /** mlx5_ifc-style C headers to import into spec package {@code mlx5} and document with the specs. */
    @Parameter
    List<File> headers;

    /** Title of the site. */
    @Parameter(property = "prmkit.doc.title", defaultValue = "${project.name}")
    String title;

    /** Skip (like the other goals). */
    @Parameter(property = "prmkit.skip", defaultValue = "false")
    boolean skip;

    /** Fail the build when the specs have warnings, as when they have errors. */
    @Parameter(property = "prmkit.failOnWarnings", defaultValue = "false")
    boolean failOnWarnings;

    @Override
    public void execute() throws MojoExecutionException, MojoFailureException {
        if (skip) {
            getLog().info("Skipping prmkit:doc (prmkit.skip is true)");
            return;
        }
        var basedir = project.getBasedir().toPath();
        var source = sourceDirectory.toPath().toAbsolutePath().normalize();
        boolean explicitSource = !source.equals(basedir.resolve("src/main/prm").toAbsolutePath().normalize());
        try {
            new DocTask(new MavenReporter(getLog())).run(new DocTask.Request(basedir, source, outputDirectory.toPath(), includes, excludes,
                    headers == null ? List.of() : headers.stream().map(f -> f.toPath().toAbsolutePath().normalize()).toList(),
                    title, failOnWarnings, explicitSource));
        } catch (GenerationException e) {
            throw new MojoFailureException(e.getMessage());
        } catch (IOException e) {
            // In words, without Java exception names, as prmkit:generate says it.
            throw new MojoExecutionException("prmkit:doc failed: " + Inputs.describe(e, outputDirectory.toPath()), e);
        } catch (RuntimeException | LinkageError e) {
            throw new MojoExecutionException("prmkit:doc hit an internal error: " + e, e);
        }
    }
}

// The plugin generated into the default directory, javac compiled it, and the test that uses the
// accessors ran and passed (a failing test would already have failed the build).
def log = new File(basedir, 'build.log').text
def gen = new File(basedir, 'target/generated-sources/prm')
def files = []
gen.eachFileRecurse(groovy.io.FileType.FILES) { files << gen.toPath().relativize(it.toPath()).toString() }
assert files.any { it.startsWith('com/example/gen/acme/') && it.endsWith('.java') } : "generated: $files"
assert new File(basedir, 'target/prmkit-maven-plugin/generate-default/state.txt').isFile()
assert log.contains('Generated ') && log.contains(' from 1 spec into target/generated-sources/prm')
def report = new File(basedir, 'target/surefire-reports').listFiles().find { it.name.endsWith('.txt') }
assert report != null : 'the unit test did not run'
assert report.text =~ /Tests run: [1-9]\d*, Failures: 0, Errors: 0, Skipped: 0/
return true

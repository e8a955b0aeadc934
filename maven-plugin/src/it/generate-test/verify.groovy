// generate-test reads src/test/prm and feeds the test compiler; generate finds no main specs.
def log = new File(basedir, 'build.log').text
assert log.contains('No prm specs found in src/main/prm')
assert !new File(basedir, 'target/generated-sources/prm').exists()
def gen = new File(basedir, 'target/generated-test-sources/prm')
def files = []
gen.eachFileRecurse(groovy.io.FileType.FILES) { files << it.name }
assert !files.isEmpty()
assert new File(basedir, 'target/prmkit-maven-plugin/generate-test-default/state.txt').isFile()
def report = new File(basedir, 'target/surefire-reports').listFiles().find { it.name.endsWith('.txt') }
assert report != null : 'the unit test did not run'
assert report.text =~ /Tests run: [1-9]\d*, Failures: 0, Errors: 0, Skipped: 0/
return true

def log = new File(basedir, 'build.log').text
assert log.contains('from 0 specs and 2 headers into target/generated-sources/prm')
def gen = new File(basedir, 'target/generated-sources/prm/com/example/gen/mlx5')
assert new File(gen, 'RingDb.java').isFile()
assert new File(gen, 'DbKey.java').isFile()
def report = new File(basedir, 'target/surefire-reports').listFiles().find { it.name.endsWith('.txt') }
assert report != null : 'the unit test did not run'
assert report.text =~ /Tests run: 1, Failures: 0, Errors: 0, Skipped: 0/
return true

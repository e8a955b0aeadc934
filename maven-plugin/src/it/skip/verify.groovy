def log = new File(basedir, 'build.log').text
assert log.contains('Skipping prmkit:generate (prmkit.skip is true)')
assert !new File(basedir, 'target/generated-sources/prm').exists()
assert !new File(basedir, 'target/prmkit-maven-plugin').exists()
return true
